// One room option as a form field, built from the game's one option declaration (games/,
// served as GET /api/games/): its type, range or choices, default and, for a contested
// rule, what each of the rules documents says.

import { h } from "./dom.js";

const text = (tag, content, cls) => h(tag, { text: content, class: cls });

export function optionField(opt) {
  const wrap = document.createElement("div");
  wrap.className = "option";
  const id = `opt-${opt.name}`;
  const label = text("label", opt.label);
  label.htmlFor = id;
  let input;
  if (opt.kind === "integer") {
    input = document.createElement("input");
    input.type = "number";
    input.inputMode = "numeric";
    input.step = "1";
    input.min = opt.minimum;
    input.max = opt.maximum;
    input.placeholder = opt.default === null ? "default" : String(opt.default);
    input.setAttribute("aria-describedby", `${id}-default`);
  } else {
    input = document.createElement("select");
    for (const c of opt.choices) {
      const o = new Option(c.value === opt.default ? `${c.label} (default)` : c.label, JSON.stringify(c.value));
      o.selected = c.value === opt.default;
      input.append(o);
    }
  }
  input.id = id;
  input.dataset.option = opt.name;
  // An option that refines another (nello's doubles refine nello) is offered only while that
  // one is on: the server refuses it otherwise (home.js, `showRefinements`).
  if (opt.requires) input.dataset.requires = opt.requires;
  wrap.append(label, input);
  if (opt.kind === "integer") {
    const said = opt.default === null ? opt.default_note || "the documents' default" : String(opt.default);
    const d = text("span", `Empty: ${said} (default); ${opt.minimum} to ${opt.maximum}`, "hint");
    d.id = `${id}-default`;
    wrap.append(d);
  }
  if (opt.sources && opt.sources.length) {
    const details = document.createElement("details");
    details.append(text("summary", "Contested: what the documents say"));
    const ul = document.createElement("ul");
    for (const p of opt.sources) {
      const li = document.createElement("li");
      li.append(text("strong", `${p.source}: `), p.says);
      ul.append(li);
    }
    details.append(ul);
    wrap.append(details);
  }
  return wrap;
}
