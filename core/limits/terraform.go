package limits

// Bounds of the Terraform reader (core/terraform).
const (
	// TerraformMaxBytes is the longest Terraform text read. A
	// google_pubsub_subscription with every attribute is under 4 KiB; a
	// whole .tf file with its topics, variables and other resources is
	// rarely over 64 KiB. 512 KiB leaves room for a large module file and
	// keeps a hostile one cheap to refuse.
	TerraformMaxBytes = 512 << 10

	// TerraformMaxDepth is the deepest nesting of blocks, brackets,
	// parentheses, quotes and template sequences read. The HCL parser
	// recurses once per level, so deeper text is refused before it is
	// parsed; a subscription resource nests four levels.
	TerraformMaxDepth = 32

	// TerraformMaxOperators is the most operators (+, !, ?, ...) one
	// expression may hold. The parser recurses once per unary operator
	// and conditional, and the evaluator once per binary operator; no
	// configuration writes more than a handful.
	TerraformMaxOperators = 64

	// TerraformMaxLocals is the longest chain of locals and variables
	// followed to resolve one value (local.a = local.b, ...), bounding the
	// resolver's recursion; cycles are refused on their own.
	TerraformMaxLocals = 16
)
