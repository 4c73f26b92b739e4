package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/subplay/subplay/core/limits"
)

// skippedDirs are never walked: a repository's history, Terraform's
// downloaded modules and providers, and npm's packages.
var skippedDirs = map[string]bool{".git": true, ".terraform": true, "node_modules": true}

// walkedFile is a file a walk found worth reading.
type walkedFile struct {
	path string // as the walk reached it, from a path given
}

// skip is a file or directory left out, with why.
type skip struct {
	path, why string
}

// walker walks the paths given to validate. It reads no file; it picks
// those whose name says they may hold a subscription.
type walker struct {
	files   []walkedFile
	skips   []skip
	entries int
	stopped string // why the walk stopped early, "" when it did not
}

// isCandidate reports whether a file found in a directory may hold a
// subscription, by its name: Terraform and Terragrunt, JSON and YAML, and
// shell scripts. Files named on the command line are read whatever their
// name.
func isCandidate(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".tf", ".json", ".yaml", ".yml", ".sh":
		return true
	}
	return name == "terragrunt.hcl"
}

// walk adds the candidate files under dir. Symbolic links are not
// followed into directories (a loop cannot make it endless); a linked
// file is read if it is a candidate and resolves.
func (w *walker) walk(root string) {
	// The .gitignore files of each directory, read as the walk enters it;
	// a pattern applies to its directory and below (gitignore's rule).
	// Paths are taken from the top of the git work tree that holds root,
	// whose .gitignore files above root count too.
	perDir := map[string][]gitignore.Pattern{}
	rootParts := splitPath(root)
	prefix := w.treePrefix(root, perDir)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if w.stopped != "" {
			return filepath.SkipAll
		}
		w.entries++
		if w.entries > limits.WalkMaxEntries {
			w.stopped = fmt.Sprintf("more than %d entries under %s; the rest is not read", limits.WalkMaxEntries, root)
			return filepath.SkipAll
		}
		if err != nil {
			w.skips = append(w.skips, skip{path, errText(err)})
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		parts := splitPath(path)
		rel := append(prefix[:len(prefix):len(prefix)], parts[len(rootParts):]...)
		isDir := d.IsDir()
		if path != root && matches(perDir, rel, isDir) {
			if isDir {
				return filepath.SkipDir
			}
			return nil
		}
		if isDir {
			if path != root && skippedDirs[d.Name()] {
				return filepath.SkipDir
			}
			if len(rel)-len(prefix) > limits.WalkMaxDepth {
				w.skips = append(w.skips, skip{path, fmt.Sprintf("deeper than %d directories", limits.WalkMaxDepth)})
				return filepath.SkipDir
			}
			if ps := readIgnore(filepath.Join(path, ".gitignore"), rel); ps != nil {
				perDir[strings.Join(rel, "/")] = ps
			}
			return nil
		}
		if !isCandidate(d.Name()) {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			fi, err := os.Stat(path)
			switch {
			case err != nil:
				w.skips = append(w.skips, skip{path, errText(err)})
				return nil
			case !fi.Mode().IsRegular():
				w.skips = append(w.skips, skip{path, "a link to something other than a file"})
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		if len(w.files) >= limits.WalkMaxFiles {
			w.stopped = fmt.Sprintf("more than %d files to read; the rest is not read", limits.WalkMaxFiles)
			return filepath.SkipAll
		}
		w.files = append(w.files, walkedFile{path: path})
		return nil
	})
	if err != nil {
		w.skips = append(w.skips, skip{root, errText(err)})
	}
}

// matches reports whether a path (its parts below the root walked) is
// ignored by the .gitignore files of the directories above it, the
// nearest one last, as git reads them.
func matches(perDir map[string][]gitignore.Pattern, rel []string, isDir bool) bool {
	var ps []gitignore.Pattern
	for i := 0; i < len(rel); i++ {
		ps = append(ps, perDir[strings.Join(rel[:i], "/")]...)
	}
	if len(ps) == 0 {
		return false
	}
	return gitignore.NewMatcher(ps).Match(rel, isDir)
}

// treePrefix returns root's path from the top of the git work tree that
// holds it (none when it is in none), and reads the .gitignore files of
// the directories between that top and root.
func (w *walker) treePrefix(root string, perDir map[string][]gitignore.Pattern) []string {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil
	}
	top := abs
	for {
		if _, err := os.Stat(filepath.Join(top, ".git")); err == nil {
			break
		}
		up := filepath.Dir(top)
		if up == top {
			return nil // in no work tree: the walk's own .gitignore files only
		}
		top = up
	}
	prefix := splitPath(strings.TrimPrefix(strings.TrimPrefix(abs, top), string(filepath.Separator)))
	for i := 0; i < len(prefix); i++ {
		if ps := readIgnore(filepath.Join(append([]string{top}, prefix[:i]...)...)+string(filepath.Separator)+".gitignore", prefix[:i]); ps != nil {
			perDir[strings.Join(prefix[:i], "/")] = ps
		}
	}
	return prefix
}

// readIgnore reads a .gitignore file of the directory at rel, nil when
// there is none or it cannot be read (an unreadable one ignores nothing,
// as git does).
func readIgnore(path string, rel []string) []gitignore.Pattern {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limits.DocumentBytes))
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	domain := append([]string(nil), rel...)
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

func splitPath(p string) []string {
	p = filepath.ToSlash(filepath.Clean(p))
	if p == "." {
		return nil
	}
	return strings.Split(strings.TrimPrefix(p, "/"), "/")
}

// errText is an I/O error without the path, which the report prints
// beside it.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// readWalked reads a file the walk found; ok is false, with why, for a
// file to skip: unreadable, larger than a document, or binary.
func readWalked(path string) (text string, why string) {
	f, err := os.Open(path)
	if err != nil {
		return "", errText(err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > limits.DocumentBytes {
		return "", fmt.Sprintf("larger than %d KiB, the most subplay reads", limits.DocumentBytes>>10)
	}
	b, err := io.ReadAll(io.LimitReader(f, limits.DocumentBytes+1))
	if err != nil {
		return "", errText(err)
	}
	if len(b) > limits.DocumentBytes {
		return "", fmt.Sprintf("larger than %d KiB, the most subplay reads", limits.DocumentBytes>>10)
	}
	if bytes.IndexByte(b[:min(len(b), 8<<10)], 0) >= 0 {
		return "", "a binary file"
	}
	return string(b), ""
}
