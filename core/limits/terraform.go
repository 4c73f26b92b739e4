package limits

// Bounds of the Terraform reader (core/terraform).
const (
	// TerraformMaxBytes is the longest Terraform text read. A
	// google_pubsub_subscription with every attribute is under 4 KiB; a
	// whole .tf file with its topics, variables and other resources is
	// rarely over 64 KiB. The HCL lexer turns the whole text into tokens
	// (about 100 bytes each) before anything can be refused, so the bound
	// is kept at twice that: 128 KiB.
	TerraformMaxBytes = 128 << 10

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

	// TerraformEvalBytes bounds what evaluating the expressions of one
	// text may build and do, estimated from their syntax before HCL
	// evaluates them (core/terraform/cost.go: a value counts 64 bytes, a
	// scalar its text too, a conversion to a string 8 KiB, a for
	// expression its collection's elements times its body, a conditional
	// both results; a number read into a string attribute is charged when
	// converted; what an expression's own text pays for, 64 bytes a byte,
	// is not charged). HCL's evaluator has no bound of its own: nested for
	// expressions over a list of a thousand numbers (4 KB of text) build a
	// billion values. Measured natively, an estimated byte costs 0.5-6 ns
	// (up to 14 beside a CI run), so 4 MiB is at most about 25-60 ms; a
	// subscription's values estimate at a few KB, a label map made by a
	// for expression over 120 numbers just passes.
	TerraformEvalBytes = 4 << 20

	// TerraformMaxExponent bounds a number literal's decimal exponent
	// (1e400, 1e-400): cty writes a number as text digit by digit, and
	// 1e99999999 as a value ran over a minute, in a template 23 s. No attribute
	// of a subscription takes a number past 2^63.
	TerraformMaxExponent = 400
)
