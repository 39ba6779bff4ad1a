// One room option as a form field, with the documents' positions on a contested rule.

import { h } from "./dom.js";

const text = (tag, content, cls) => h(tag, { text: content, class: cls });

export function optionField(opt) {
  const wrap = document.createElement("div");
  wrap.className = "option";
  const id = `opt-${opt.name}`;
  const label = text("label", opt.label);
  label.htmlFor = id;
  let input;
  if (opt.kind === "number") {
    input = document.createElement("input");
    input.type = "number";
    input.min = opt.min;
    input.max = opt.max;
    input.placeholder = "default";
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
  wrap.append(label, input);
  if (opt.kind === "number") {
    const d = text("span", `Empty: ${opt.default_label} (default)`, "hint");
    d.id = `${id}-default`;
    wrap.append(d);
  }
  if (opt.contested) {
    const details = document.createElement("details");
    details.append(text("summary", "Contested: what the documents say"));
    const ul = document.createElement("ul");
    for (const p of opt.positions) {
      const li = document.createElement("li");
      li.append(text("strong", `${p.source}: `), p.says);
      ul.append(li);
    }
    details.append(ul);
    wrap.append(details);
  }
  return wrap;
}
