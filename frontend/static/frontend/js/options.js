// One room option as a form field, built from the game's one option declaration (games/,
// served as GET /api/games/): its type, range or choices, default and, for a contested
// rule, what each of the rules documents says.

import { h } from "./dom.js";
import { formatNumber, gettext, interpolate } from "./i18n.js";

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
    // Translators: the placeholder of an empty number field whose default the rules set.
    input.placeholder = opt.default === null ? gettext("default") : String(opt.default);
    input.setAttribute("aria-describedby", `${id}-default`);
  } else {
    input = document.createElement("select");
    for (const c of opt.choices) {
      // Translators: the default choice in a list of a room option's choices.
      const label = c.value === opt.default ? interpolate(gettext("%(choice)s (default)"), { choice: c.label }) : c.label;
      const o = new Option(label, JSON.stringify(c.value));
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
    const said = opt.default === null ? opt.default_note || gettext("the documents' default") : formatNumber(opt.default);
    // Translators: under a number field: what an empty field means, then the allowed range.
    const d = text("span", interpolate(gettext("Empty: %(default)s (default); %(minimum)s to %(maximum)s"),
      { default: said, minimum: formatNumber(opt.minimum), maximum: formatNumber(opt.maximum) }), "hint");
    d.id = `${id}-default`;
    wrap.append(d);
  }
  if (opt.sources && opt.sources.length) {
    const details = document.createElement("details");
    details.append(text("summary", gettext("Contested: what the documents say")));
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
