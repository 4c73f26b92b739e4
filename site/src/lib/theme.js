// theme.js applies "light", "dark" or "auto" (follow prefers-color-scheme,
// which the stylesheet does by itself).
export function applyTheme(theme) {
  const t = theme === "light" || theme === "dark" ? theme : "auto";
  if (t === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = t;
}
