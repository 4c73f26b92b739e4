package split

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/subplay/subplay/core/doc"
)

// TestText: each file of testdata and what it holds: each subscription's
// source ("line:col kind name") and its errors and warnings ("line:col
// severity code"), and the findings about the file as a whole.
func TestText(t *testing.T) {
	cases := []struct {
		file   string
		format doc.Format
		units  []string
		errors [][]string
		file_  []string
	}{
		{"list.json", "", []string{"2:3 element [0]", "7:3 element [1]"}, [][]string{nil, {"10:27 error value-too-large"}}, nil},
		{"list.yaml", "yaml", []string{"2:1 document document 1", "6:1 document document 2", "13:1 document document 3"},
			[][]string{nil, {"7:27 error value-too-small"}, {"16:19 error value-too-large"}}, nil},
		{"package.json", "", nil, nil, nil},
		{"manifests.yaml", "yaml", nil, nil, nil},
		{"tsconfig.json", "json", nil, nil, nil},
		{"broken.json", "", nil, nil, []string{"3:28 error json-syntax"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			text, err := os.ReadFile("testdata/" + c.file)
			if err != nil {
				t.Fatal(err)
			}
			r := Text(c.file, string(text), c.format)
			var units []string
			for i, u := range r.Units {
				units = append(units, fmt.Sprintf("%d:%d %s %s", u.Source.Line, u.Source.Column, u.Source.Kind, u.Source.Name))
				var got []string
				for _, d := range u.Config().Validate() {
					if d.Severity != "info" {
						got = append(got, fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Severity, d.Code))
					}
				}
				if i < len(c.errors) && !slices.Equal(got, c.errors[i]) {
					t.Errorf("%s: findings %q, want %q", units[i], got, c.errors[i])
				}
			}
			if !slices.Equal(units, c.units) {
				t.Errorf("units %q, want %q", units, c.units)
			}
			var file []string
			for _, d := range r.Diagnostics {
				file = append(file, fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Severity, d.Code))
			}
			if !slices.Equal(file, c.file_) {
				t.Errorf("file findings %q, want %q", file, c.file_)
			}
		})
	}
}

// TestDocumentStarts holds where YAML documents start.
func TestDocumentStarts(t *testing.T) {
	for _, c := range []struct {
		text string
		want []int
	}{
		{"a: 1\n", []int{0}},
		{"---\na: 1\n", []int{0}},
		{"a: 1\n---\nb: 2\n", []int{0, 5}},
		{"a: 1\n...\n---\nb: 2\n", []int{0, 9}},
		{"a: |\n  ---\nb: 2\n", []int{0}},
		{"a: 1\n--- # c\nb: 2\n", []int{0, 5}},
	} {
		if got := documentStarts(c.text); !slices.Equal(got, c.want) {
			t.Errorf("documentStarts(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
