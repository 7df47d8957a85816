package settings

import "strings"

// Markdown returns the settings table as the README shows it.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| variable | accepted values | default | in code | meaning |\n")
	b.WriteString("| --- | --- | --- | --- | --- |\n")
	for _, s := range table {
		b.WriteString("| `" + s.Name + "` | " + s.Values + " | " + s.Default + " | " + s.Option + " | " + s.Meaning + " |\n")
	}
	return b.String()
}
