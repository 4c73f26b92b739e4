package limits

// Bounds of the gcloud command reader (core/gcloudcmd).
const (
	// GcloudMaxBytes is the longest command text read. A command with every
	// flag gcloud has for a subscription, long values included, is under
	// 4 KiB; a filter can be 256 bytes. 64 KiB leaves room for a pasted
	// script around the command and keeps hostile input cheap.
	GcloudMaxBytes = 64 << 10

	// GcloudScriptBytes is the longest script read for every command it
	// holds (subplay validate over a repository): a document's bound, since
	// each command is read on its own and the lexer is linear.
	GcloudScriptBytes = DocumentBytes

	// GcloudMaxWords is the most words (flags and values) one command may
	// have. gcloud has under 50 flags for a subscription; a command with
	// more words than this is not one a person wrote.
	GcloudMaxWords = 400

	// GcloudMaxFiles is the most files a request may carry beside the
	// command (--message-transforms-file names one).
	GcloudMaxFiles = 8

	// GcloudMaxFileBytes is the largest such file: a list of message
	// transforms with their JavaScript code.
	GcloudMaxFileBytes = 256 << 10
)
