// A message under the top bar (errors in red) that clears itself after a while.

let timer = null;

export function notify(text, kind = "info") {
  const box = document.getElementById("notice");
  box.textContent = text;
  box.className = `notice ${kind}`;
  box.hidden = !text;
  clearTimeout(timer);
  if (text) timer = setTimeout(() => { box.hidden = true; }, kind === "error" ? 9000 : 4000);
}
