package limits

// Bounds of subplay validate over directories (cmd/subplay).
const (
	// WalkMaxFiles is the most files one run reads. A repository's
	// configuration is hundreds of files; past this the rest are skipped,
	// with a note, so that a directory of generated files cannot make a CI
	// step read for minutes.
	WalkMaxFiles = 50_000

	// WalkMaxEntries is the most directory entries one run looks at,
	// files it does not read included (node_modules-like trees the
	// .gitignore does not name).
	WalkMaxEntries = 1_000_000

	// WalkMaxDepth is the deepest directory walked below a path given;
	// deeper ones are skipped with a note. Symbolic links to directories
	// are not followed, so a loop cannot make the walk endless.
	WalkMaxDepth = 64
)
