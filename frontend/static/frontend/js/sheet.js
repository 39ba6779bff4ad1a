// The printable score sheet's Print button (no inline script: the pages keep to script-src 'self').

document.getElementById("print-sheet")?.addEventListener("click", () => window.print());
