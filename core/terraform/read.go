//go:build !nohcl

package terraform

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/subscription"
)

// Supported is true: this build reads Terraform text.
const Supported = true

// metaAttrs are Terraform's own arguments of every resource; they do not
// reach the provider.
var metaAttrs = map[string]bool{"count": true, "for_each": true, "depends_on": true, "provider": true}

// metaBlocks are Terraform's own blocks of a resource (timeouts is every
// provider's).
var metaBlocks = map[string]bool{"lifecycle": true, "provisioner": true, "connection": true, "timeouts": true}

type reader struct {
	req   Request
	src   *diag.Source
	ds    []diag.Diagnostic
	file  *hclsyntax.Body
	vars  map[string]*hclsyntax.Attribute // variable defaults
	noDef map[string]bool                 // variables declared without default
	local map[string]*hclsyntax.Attribute
	// topics are the google_pubsub_topic resources by label.
	topics map[string]*hclsyntax.Body
	// providerProject is the project of the google provider block (by
	// alias, "" for the default one), as an expression.
	providers map[string]*hclsyntax.Body
	provider  string // the alias the resource uses
	// resolved caches each local's value (by name) and each topic's (by
	// google_pubsub_topic.LABEL); resolving marks those being resolved, to
	// refuse cycles.
	resolved  map[string]resolution
	resolving map[string]bool
	// defaults caches each variable's default, evaluated once, and
	// projects each project attribute read (its text, or why unknown).
	defaults map[string]resolution
	projects map[*hclsyntax.Attribute][2]string
	// spent is what the evaluations so far may have built (estimate's
	// bounds), at most limits.TerraformEvalBytes.
	spent   int64
	unknown map[string]bool
	root    *doc.Node
	// fileDs are ReadAll's findings about the text as a whole, kept
	// aside while it reads each subscription.
	fileDs []diag.Diagnostic
}

// resolution is a value and its bound, or why it is unknown.
type resolution struct {
	v   cty.Value
	b   bound
	why string // "" when v is known
}

func newReader(req Request) *reader {
	return &reader{req: req, src: diag.NewSource(req.Name, req.Text), vars: map[string]*hclsyntax.Attribute{}, noDef: map[string]bool{},
		local: map[string]*hclsyntax.Attribute{}, topics: map[string]*hclsyntax.Body{}, providers: map[string]*hclsyntax.Body{},
		resolved: map[string]resolution{}, resolving: map[string]bool{}, defaults: map[string]resolution{},
		projects: map[*hclsyntax.Attribute][2]string{}, unknown: map[string]bool{}}
}

// Read reads the google_pubsub_subscription resource of a Terraform text.
// It never fails: problems are diagnostics, and Doc.Root is nil when no
// resource could be read.
func Read(req Request) *Result {
	r := newReader(req)
	res := &Result{}
	switch {
	case len(req.Text) > limits.TerraformMaxBytes:
		r.errorf(diag.Span{}, "", "input-too-large", "the Terraform text is longer than "+strconv.Itoa(limits.TerraformMaxBytes>>10)+" KiB, the most subplay reads",
			"paste the file that holds the subscription, or the resource alone")
	case r.scan():
		r.read(res)
	}
	res.Resource = r.req.Resource
	res.Doc = &doc.Doc{Source: r.src, Format: Format, Root: r.root}
	for p := range r.unknown {
		res.Unknown = append(res.Unknown, p)
	}
	sort.Strings(res.Unknown)
	res.Diagnostics = r.src.Finish(r.ds)
	return res
}

func (r *reader) add(sev diag.Severity, sp diag.Span, path, code, msg, hint string) {
	r.ds = append(r.ds, diag.Diagnostic{Severity: sev, Code: code, Path: path, Message: msg, Hint: hint, Span: sp})
}

func (r *reader) errorf(sp diag.Span, path, code, msg, hint string) {
	r.add(diag.Error, sp, path, code, msg, hint)
}

func span(rg hcl.Range) diag.Span { return diag.SpanOf(rg.Start.Byte, rg.End.Byte) }

// scan lexes the text (linear, no recursion) and refuses what would make
// the parser or the evaluator recurse deeply: nesting past
// TerraformMaxDepth, or more than TerraformMaxOperators operators in one
// expression. It reports whether the text may be parsed.
func (r *reader) scan() bool {
	toks, _ := hclsyntax.LexConfig([]byte(r.req.Text), r.req.Name, hcl.InitialPos)
	depth, brackets, ops := 0, 0, 0
	var stack []hclsyntax.TokenType
	for _, t := range toks {
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen, hclsyntax.TokenTemplateInterp,
			hclsyntax.TokenTemplateControl, hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
			depth++
			stack = append(stack, t.Type)
			if t.Type == hclsyntax.TokenOBrack || t.Type == hclsyntax.TokenOParen {
				brackets++
			}
			if depth > limits.TerraformMaxDepth {
				r.errorf(span(t.Range), "", "too-deep", "the Terraform text nests deeper than "+strconv.Itoa(limits.TerraformMaxDepth)+" levels",
					"a subscription resource nests four levels; check that this is the right file")
				return false
			}
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenTemplateSeqEnd,
			hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
			if depth > 0 {
				depth--
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if top == hclsyntax.TokenOBrack || top == hclsyntax.TokenOParen {
					brackets--
				}
			}
		case hclsyntax.TokenNumberLit:
			if m := magnitude(string(t.Bytes)); m > limits.TerraformMaxExponent || m < -limits.TerraformMaxExponent {
				r.errorf(span(t.Range), "", "terraform-bad-value", "this number is beyond 1e±"+strconv.Itoa(limits.TerraformMaxExponent)+", more than subplay evaluates",
					"no attribute of a subscription takes a number larger than 2^63; write the value itself")
				return false
			}
		case hclsyntax.TokenNewline:
			if brackets == 0 {
				ops = 0
			}
		case hclsyntax.TokenPlus, hclsyntax.TokenMinus, hclsyntax.TokenStar, hclsyntax.TokenSlash, hclsyntax.TokenPercent,
			hclsyntax.TokenAnd, hclsyntax.TokenOr, hclsyntax.TokenBang, hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual,
			hclsyntax.TokenLessThan, hclsyntax.TokenLessThanEq, hclsyntax.TokenGreaterThan, hclsyntax.TokenGreaterThanEq,
			hclsyntax.TokenQuestion, hclsyntax.TokenEllipsis:
			ops++
			if ops > limits.TerraformMaxOperators {
				r.errorf(span(t.Range), "", "terraform-too-complex", "this expression has more than "+strconv.Itoa(limits.TerraformMaxOperators)+" operators, more than subplay evaluates",
					"a subscription's values are literals or short references; check that this is the right file")
				return false
			}
		}
	}
	return true
}

// magnitude is the decimal exponent of a number literal's value as HCL
// writes it (digits, a point, digits, an exponent): 0 for 0, 2 for 123,
// -3 for 0.001, 400 for 1e400; past an int's range, a value past it.
func magnitude(lit string) int {
	mant, exp, _ := strings.Cut(strings.ToLower(lit), "e")
	ip, fp, _ := strings.Cut(mant, ".")
	m := 0
	if ip = strings.TrimLeft(ip, "0"); ip != "" {
		m = len(ip) - 1
	} else if t := strings.TrimLeft(fp, "0"); t != "" {
		m = -(len(fp) - len(t)) - 1
	} else {
		return 0
	}
	if exp != "" {
		e, err := strconv.Atoi(strings.TrimPrefix(exp, "+"))
		if err != nil {
			if strings.HasPrefix(exp, "-") {
				return math.MinInt32
			}
			return math.MaxInt32
		}
		m += max(min(e, math.MaxInt32), math.MinInt32)
	}
	return m
}

func (r *reader) read(res *Result) {
	subs, _ := r.parseFile()
	if subs == nil {
		return
	}
	for _, b := range subs {
		res.Resources = append(res.Resources, b.Labels[1])
	}
	if len(subs) == 0 {
		r.errorf(diag.Span{}, "", "terraform-no-subscription", "the text has no resource \""+ResourceType+"\" block",
			"subplay reads resource \""+ResourceType+"\" \"NAME\" { ... }")
		return
	}
	chosen := subs[0]
	if r.req.Resource != "" {
		chosen = nil
		for _, b := range subs {
			if b.Labels[1] == r.req.Resource {
				chosen = b
			}
		}
		if chosen == nil {
			r.errorf(span(subs[0].DefRange()), "", "terraform-resource-not-found", "the text has no "+ResourceType+" called "+diag.Quote(r.req.Resource),
				"its "+ResourceType+" resources are "+listOf(res.Resources))
			return
		}
	} else if len(subs) > 1 {
		r.add(diag.Info, span(subs[1].DefRange()), "", "terraform-more-resources",
			"the text has "+strconv.Itoa(len(subs))+" "+ResourceType+" resources ("+listOf(res.Resources)+"); subplay reads the first, "+diag.Quote(subs[0].Labels[1]),
			"name the one to read (the request's terraformResource, or --resource) to check another")
	}
	r.req.Resource = chosen.Labels[1]
	r.resource(chosen)
}

// parseFile parses the text and records what resources may refer to
// (variables, locals, topics, providers). It returns the subscription
// resources and the module calls, in order; subs is nil (not empty) when
// the text could not be parsed.
func (r *reader) parseFile() (subs, modules []*hclsyntax.Block) {
	f, hd := hclsyntax.ParseConfig([]byte(r.req.Text), r.req.Name, hcl.InitialPos)
	for _, d := range hd {
		if d.Severity != hcl.DiagError {
			continue
		}
		sp := diag.Span{}
		if d.Subject != nil {
			sp = span(*d.Subject)
		}
		r.errorf(sp, "", "terraform-syntax", "this is not valid Terraform: "+clause(d.Summary), clause(d.Detail))
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok || hd.HasErrors() {
		return nil, nil
	}
	r.file = body
	subs = []*hclsyntax.Block{}
	for _, b := range body.Blocks {
		switch {
		case b.Type == "variable" && len(b.Labels) == 1:
			if a := b.Body.Attributes["default"]; a != nil {
				r.vars[b.Labels[0]] = a
			} else {
				r.noDef[b.Labels[0]] = true
			}
		case b.Type == "locals":
			for n, a := range b.Body.Attributes {
				r.local[n] = a
			}
		case b.Type == "provider" && len(b.Labels) == 1 && b.Labels[0] == "google":
			alias := ""
			if a := b.Body.Attributes["alias"]; a != nil {
				if v, ok := r.literal(a.Expr); ok && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
					alias = v.AsString()
				}
			}
			r.providers[alias] = b.Body
		case b.Type == "resource" && len(b.Labels) == 2 && b.Labels[0] == TopicType:
			r.topics[b.Labels[1]] = b.Body
		case b.Type == "resource" && len(b.Labels) == 2 && b.Labels[0] == ResourceType:
			subs = append(subs, b)
		case b.Type == "module" && len(b.Labels) == 1:
			modules = append(modules, b)
		}
	}
	return subs, modules
}

// resource reads the chosen subscription resource.
func (r *reader) resource(b *hclsyntax.Block) {
	r.root = &doc.Node{Kind: doc.Object, Span: span(b.DefRange())}
	body := b.Body
	for _, n := range []string{"count", "for_each"} {
		if a := body.Attributes[n]; a != nil {
			r.add(diag.Info, span(a.NameRange), "", "terraform-repeated", "the resource is repeated by "+n+"; subplay checks its configuration once, with count.index and each unknown", "")
		}
	}
	if a := body.Attributes["provider"]; a != nil {
		if t, diags := hcl.AbsTraversalForExpr(a.Expr); !diags.HasErrors() && len(t) == 2 && t.RootName() == "google" {
			if at, ok := t[1].(hcl.TraverseAttr); ok {
				r.provider = at.Name
			}
		}
	}
	r.body(body, schema, "", "", r.root, b.DefRange(), true)
	r.names(body, b.DefRange())
	if !hasBlock(body, "expiration_policy") && !r.unknown["/expirationPolicy"] {
		ttl := subscription.FieldAt("/expirationPolicy/ttl")
		long := ttl.Default
		if d, err := subscription.ParseDuration(ttl.Default); err == nil {
			long = d.Long()
		}
		r.add(diag.Info, span(b.DefRange()), "/expirationPolicy", "terraform-default-expiration",
			"without an expiration_policy block the subscription is deleted after "+long+" without activity",
			`write expiration_policy { ttl = "" } for a subscription that never expires`)
	}
}

func hasBlock(body *hclsyntax.Body, typ string) bool {
	for _, b := range body.Blocks {
		if b.Type == typ || b.Type == "dynamic" && len(b.Labels) == 1 && b.Labels[0] == typ {
			return true
		}
	}
	return false
}

// body reads the attributes and blocks of body into obj by the table.
func (r *reader) body(body *hclsyntax.Body, list []*attr, path, tfPath string, obj *doc.Node, def hcl.Range, top bool) {
	attrs := make([]*hclsyntax.Attribute, 0, len(body.Attributes))
	for _, a := range body.Attributes {
		attrs = append(attrs, a)
	}
	sort.Slice(attrs, func(i, j int) bool { return attrs[i].SrcRange.Start.Byte < attrs[j].SrcRange.Start.Byte })
	seen := map[string]bool{}
	for _, a := range attrs {
		seen[a.Name] = true
		if top && metaAttrs[a.Name] {
			continue
		}
		s := find(list, a.Name, true)
		switch {
		case s == nil:
			r.errorf(span(a.NameRange), path, "terraform-unknown-attribute", ResourceType+" has no attribute "+shown(a.Name)+r.where(tfPath), r.suggest(a.Name, list))
			continue
		case s.kind == kBlock || s.kind == kList:
			r.errorf(span(a.NameRange), path+"/"+s.rest, "terraform-not-an-attribute", shown(a.Name)+" is a block, not an attribute",
				"write "+shown(a.Name)+" { ... } without the equals sign")
			continue
		case s.rest == "" || top && (s.rest == "name" || s.rest == "topic"):
			continue // project, name and topic make names: see names
		}
		p := path + "/" + s.rest
		if n := r.value(s, a, p); n != nil {
			obj.Members = append(obj.Members, doc.Member{Key: s.rest, KeySpan: span(a.NameRange), Value: n})
		}
	}
	counts := map[string]int{}
	for _, b := range body.Blocks {
		if top && metaBlocks[b.Type] {
			continue
		}
		typ := b.Type
		if typ == "dynamic" && len(b.Labels) == 1 {
			typ = b.Labels[0]
		}
		s := find(list, typ, true)
		switch {
		case s == nil:
			r.errorf(span(b.TypeRange), path, "terraform-unknown-block", ResourceType+" has no block "+shown(typ)+r.where(tfPath), r.suggest(typ, list))
			continue
		case s.kind != kBlock && s.kind != kList:
			r.errorf(span(b.TypeRange), path+"/"+s.rest, "terraform-not-a-block", shown(typ)+" is an attribute, not a block", "write "+shown(typ)+" = VALUE")
			continue
		}
		seen[typ] = true
		p := path + "/" + s.rest
		if b.Type == "dynamic" {
			r.markUnknown(p, span(b.TypeRange), "dynamic \""+typ+"\" is expanded by Terraform from its for_each: subplay does not expand it",
				"write the block itself to have it checked")
			continue
		}
		if len(b.Labels) > 0 {
			r.errorf(span(b.LabelRanges[0]), p, "terraform-block-label", "the "+typ+" block takes no label", "write "+typ+" { ... }")
		}
		counts[typ]++
		if s.kind == kBlock && counts[typ] > 1 {
			r.errorf(span(b.TypeRange), p, "terraform-repeated-block", "the "+typ+" block is written twice; the provider takes one", "merge them into one block")
			continue
		}
		n := &doc.Node{Kind: doc.Object, Span: span(b.DefRange())}
		r.body(b.Body, s.children, blockPath(p, s, counts[typ]-1), tfPath+" "+typ, n, b.DefRange(), false)
		if s.kind == kList {
			arr := obj.Get(s.rest)
			if arr == nil {
				arr = &doc.Node{Kind: doc.Array, Span: span(b.DefRange())}
				obj.Members = append(obj.Members, doc.Member{Key: s.rest, KeySpan: span(b.TypeRange), Value: arr})
			}
			arr.Items = append(arr.Items, n)
			arr.Span = diag.Span{Start: arr.Span.Start, End: span(b.Range()).End}
			continue
		}
		r.blockQuirks(s, n)
		obj.Members = append(obj.Members, doc.Member{Key: s.rest, KeySpan: span(b.TypeRange), Value: n})
	}
	for _, s := range list {
		if s.required && !seen[s.tf] && !(top && (s.tf == "name" || s.tf == "topic")) {
			r.errorf(span(def), path+"/"+s.rest, "terraform-missing-attribute", "the provider requires "+s.tf+" here"+r.where(tfPath), "add "+s.tf+" = VALUE")
		}
	}
}

func blockPath(p string, s *attr, i int) string {
	if s.kind == kList {
		return p + "/" + strconv.Itoa(i)
	}
	return p
}

// blockQuirks applies the provider's own mapping of a block's values.
func (r *reader) blockQuirks(s *attr, n *doc.Node) {
	if s.rest != "expirationPolicy" {
		return
	}
	// ttl = "" is the provider's "never": it sends a policy without
	// ttl, which the API reads as never expiring (the rules say so).
	for i, m := range n.Members {
		if m.Key == "ttl" && m.Value.Kind == doc.String && m.Value.Value == "" {
			n.Members = append(n.Members[:i], n.Members[i+1:]...)
			return
		}
	}
}

// where names the block a finding is in, for messages about nested ones.
// shown is a name from the text for a message: an identifier as it is
// (clipped), anything else (a dynamic block's label) quoted, so that a
// label such as "a." cannot end the message with its own period.
func shown(name string) string {
	if hclsyntax.ValidIdentifier(name) {
		return diag.Clip(name)
	}
	return diag.Quote(name)
}

func (r *reader) where(path string) string {
	if path == "" {
		return ""
	}
	return " in block" + path
}

func (r *reader) suggest(name string, list []*attr) string {
	best, bestD := "", 4
	for _, s := range list {
		if d := diag.EditDistance(name, s.tf); d < bestD {
			best, bestD = s.tf, d
		}
	}
	if best != "" {
		return "did you mean " + best + "?"
	}
	names := make([]string, 0, len(list))
	for _, s := range list {
		names = append(names, s.tf)
	}
	return "the provider's names here are " + strings.Join(names, ", ")
}

func (r *reader) markUnknown(path string, sp diag.Span, msg, hint string) {
	if r.unknown[path] {
		return
	}
	r.unknown[path] = true
	r.add(diag.Info, sp, path, "terraform-unknown-value", msg, hint)
}

// value evaluates one attribute into a node of the REST document; nil
// when it has no value (null, unknown or wrong).
func (r *reader) value(s *attr, a *hclsyntax.Attribute, path string) *doc.Node {
	if o, ok := a.Expr.(*hclsyntax.ObjectConsExpr); ok && s.kind == kMap {
		return r.mapItems(s, o, path)
	}
	v, ok := r.eval(a.Expr, path, a.Name)
	if !ok {
		return nil
	}
	sp := span(a.Expr.Range())
	if v.IsNull() {
		if s.required {
			hint := "give it a value"
			if s.tf == "ttl" {
				hint = `write ttl = "" for a subscription that never expires; a wrapper that turns "" into null makes the provider's 31-day default`
			}
			r.errorf(sp, path, "terraform-null", s.tf+" is null, but the provider requires a value", hint)
		} else {
			r.add(diag.Info, sp, path, "terraform-null", s.tf+" is null, which leaves it unset: the default applies", "")
		}
		return nil
	}
	return r.toNode(s, v, sp, path, a.Expr)
}

// toNode converts a known value as the provider would read it for the
// attribute's type (Terraform converts strings, numbers and booleans
// into each other).
func (r *reader) toNode(s *attr, v cty.Value, sp diag.Span, path string, expr hclsyntax.Expression) *doc.Node {
	bad := func(want string) *doc.Node {
		r.errorf(sp, path, "terraform-bad-value", s.tf+" must be "+want+", not "+friendlyType(v.Type()), "")
		return nil
	}
	switch s.kind {
	case kString, kDuration:
		if !r.affords(v, sp, path, s.tf) {
			return nil
		}
		c, err := convert.Convert(v, cty.String)
		if err != nil {
			return bad("a string")
		}
		return &doc.Node{Kind: doc.String, Value: c.AsString(), Span: sp}
	case kBool:
		c, err := convert.Convert(v, cty.Bool)
		if err != nil {
			return bad("true or false")
		}
		return &doc.Node{Kind: doc.Bool, Value: strconv.FormatBool(c.True()), Span: sp}
	case kInt:
		c, err := convert.Convert(v, cty.Number)
		if err != nil {
			return bad("a number")
		}
		bf := c.AsBigFloat()
		if !bf.IsInt() {
			r.errorf(sp, path, "terraform-bad-value", s.tf+" must be a whole number, not "+bf.Text('g', 10), "")
			return nil
		}
		return &doc.Node{Kind: doc.Number, Value: bf.Text('f', 0), Span: sp}
	case kMap:
		t := v.Type()
		if !t.IsObjectType() && !t.IsMapType() {
			return bad("a map of strings")
		}
		spans := r.itemSpans(expr)
		n := &doc.Node{Kind: doc.Object, Span: sp}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			key := k.AsString()
			ksp, vsp := sp, sp
			if s, ok := spans[key]; ok {
				ksp, vsp = s[0], s[1]
			}
			if ev.IsNull() {
				r.errorf(vsp, path+"/"+diag.PointerKey(key), "terraform-null", "the value of "+diag.Quote(key)+" is null; a map of strings takes strings", "")
				continue
			}
			if !r.affords(ev, vsp, path+"/"+diag.PointerKey(key), s.tf+"."+key) {
				continue
			}
			c, err := convert.Convert(ev, cty.String)
			if err != nil {
				r.errorf(vsp, path+"/"+diag.PointerKey(key), "terraform-bad-value", "the value of "+diag.Quote(key)+" must be a string, not "+friendlyType(ev.Type()), "")
				continue
			}
			n.Members = append(n.Members, doc.Member{Key: key, KeySpan: ksp, Value: &doc.Node{Kind: doc.String, Value: c.AsString(), Span: vsp}})
		}
		return n
	}
	return nil
}

// mapItems reads a map written as { k = v, ... } item by item, so that
// one unknown value leaves only its own entry unknown.
func (r *reader) mapItems(s *attr, o *hclsyntax.ObjectConsExpr, path string) *doc.Node {
	n := &doc.Node{Kind: doc.Object, Span: span(o.Range())}
	seen := make(map[string]bool, len(o.Items))
	for _, it := range o.Items {
		key := hcl.ExprAsKeyword(it.KeyExpr)
		if key == "" {
			k, ok := r.eval(it.KeyExpr, path, "a key of "+s.tf)
			if !ok || !r.affords(k, span(it.KeyExpr.Range()), path, "a key of "+s.tf) {
				continue
			}
			c, err := convert.Convert(k, cty.String)
			if err != nil || c.IsNull() {
				r.errorf(span(it.KeyExpr.Range()), path, "terraform-bad-value", "a key of "+s.tf+" must be a string", "")
				continue
			}
			key = c.AsString()
		}
		p := path + "/" + diag.PointerKey(key)
		ksp, vsp := span(it.KeyExpr.Range()), span(it.ValueExpr.Range())
		if seen[key] {
			r.errorf(ksp, p, "terraform-duplicate-key", s.tf+" gives "+diag.Quote(key)+" twice", "remove one")
			continue
		}
		v, ok := r.eval(it.ValueExpr, p, s.tf+"."+key)
		if !ok {
			continue
		}
		if v.IsNull() {
			r.errorf(vsp, p, "terraform-null", "the value of "+diag.Quote(key)+" is null; a map of strings takes strings", "")
			continue
		}
		if !r.affords(v, vsp, p, s.tf+"."+key) {
			continue
		}
		c, err := convert.Convert(v, cty.String)
		if err != nil {
			r.errorf(vsp, p, "terraform-bad-value", "the value of "+diag.Quote(key)+" must be a string, not "+friendlyType(v.Type()), "")
			continue
		}
		seen[key] = true
		n.Members = append(n.Members, doc.Member{Key: key, KeySpan: ksp, Value: &doc.Node{Kind: doc.String, Value: c.AsString(), Span: vsp}})
	}
	return n
}

// itemSpans maps the keys of an object constructor to the spans of each
// key and value, so a finding about one label points at it.
func (r *reader) itemSpans(expr hclsyntax.Expression) map[string][2]diag.Span {
	o, ok := expr.(*hclsyntax.ObjectConsExpr)
	if !ok {
		return nil
	}
	out := make(map[string][2]diag.Span, len(o.Items))
	for _, it := range o.Items {
		k := hcl.ExprAsKeyword(it.KeyExpr)
		if k == "" {
			if v, ok := r.literal(it.KeyExpr); ok && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
				k = v.AsString()
			}
		}
		if k != "" {
			out[k] = [2]diag.Span{span(it.KeyExpr.Range()), span(it.ValueExpr.Range())}
		}
	}
	return out
}

func friendlyType(t cty.Type) string {
	switch {
	case t == cty.String:
		return "a string"
	case t == cty.Number:
		return "a number"
	case t == cty.Bool:
		return "a boolean"
	case t.IsObjectType() || t.IsMapType():
		return "an object"
	case t.IsTupleType() || t.IsListType() || t.IsSetType():
		return "a list"
	}
	return t.FriendlyName()
}

// names builds name and topic: the provider makes the full names from
// the short ones and the project (the resource's, else the provider's).
func (r *reader) names(body *hclsyntax.Body, def hcl.Range) {
	project, projSpan, projWhy := r.project(body)
	sp := span(def)
	if a := body.Attributes["name"]; a != nil {
		r.fullName(a, "/name", "subscriptions", project, projSpan, projWhy)
	} else {
		r.errorf(sp, "/name", "terraform-missing-attribute", "the provider requires name", `add name = "SUBSCRIPTION_ID"`)
	}
	if a := body.Attributes["topic"]; a != nil {
		r.fullName(a, "/topic", "topics", project, projSpan, projWhy)
	} else {
		r.errorf(sp, "/topic", "terraform-missing-attribute", "the provider requires topic", "add topic = google_pubsub_topic.NAME.id")
	}
}

// project returns the subscription's project: its project attribute, or
// its provider's. why says why it is unknown ("" when known).
func (r *reader) project(body *hclsyntax.Body) (string, diag.Span, string) {
	if a := body.Attributes["project"]; a != nil {
		return r.stringAttr(a, "/name")
	}
	if p := r.providers[r.provider]; p != nil {
		if a := p.Attributes["project"]; a != nil {
			return r.stringAttr(a, "/name")
		}
	}
	return "", diag.Span{}, "the project comes from the provider's configuration (GOOGLE_PROJECT or gcloud's), which the text does not give"
}

// stringAttr evaluates a project attribute, once: the provider's is read
// for the subscription and for every topic without a project of its own.
func (r *reader) stringAttr(a *hclsyntax.Attribute, path string) (string, diag.Span, string) {
	if p, ok := r.projects[a]; ok {
		return p[0], span(a.Expr.Range()), p[1]
	}
	s, why := r.projectOf(a)
	r.projects[a] = [2]string{s, why}
	return s, span(a.Expr.Range()), why
}

func (r *reader) projectOf(a *hclsyntax.Attribute) (string, string) {
	v, why := r.resolve(a.Expr, 0)
	if why != "" {
		return "", why
	}
	c, err := convert.Convert(v, cty.String)
	if err != nil || c.IsNull() {
		return "", "the project is not a string"
	}
	return c.AsString(), ""
}

func (r *reader) fullName(a *hclsyntax.Attribute, path, collection, project string, projSpan diag.Span, projWhy string) {
	r.fullNameOf(a.Expr, a.NameRange, a.Name, path, collection, project, projWhy)
}

// fullNameOf is fullName for an expression named name, written at
// nameRange: an attribute, or a key of an object (a module's entry).
func (r *reader) fullNameOf(e hclsyntax.Expression, nameRange hcl.Range, name, path, collection, project, projWhy string) {
	v, ok := r.eval(e, path, name)
	if !ok {
		return
	}
	sp := span(e.Range())
	c, err := convert.Convert(v, cty.String)
	if err != nil || c.IsNull() {
		r.errorf(sp, path, "terraform-bad-value", name+" must be a string", "")
		return
	}
	s := c.AsString()
	n := &doc.Node{Kind: doc.String, Value: s, Span: sp}
	switch {
	case strings.HasPrefix(s, "projects/"):
		if collection == "subscriptions" {
			r.add(diag.Warning, sp, path, "terraform-full-name", "the provider builds the URL from name as projects/PROJECT/subscriptions/NAME, so name is the subscription ID alone",
				"write the ID, and the project in project")
		}
	case project == "":
		r.shortID(sp, path, collection, s)
		r.markUnknown(path, sp, name+" is a short name in the project of the provider, which is unknown here: "+projWhy,
			`add project = "PROJECT" to the resource or the google provider block to have the full name checked`)
		return
	default:
		n.Value = "projects/" + project + "/" + collection + "/" + s
	}
	r.root.Members = append(r.root.Members, doc.Member{Key: path[1:], KeySpan: span(nameRange), Value: n})
}

// shortID checks the ID of a name whose project is unknown: the full name
// is not known, its ID is, and one the API refuses is an error in any
// project. A finding points inside the string when it is written as a
// plain quoted literal, else at the whole expression.
func (r *reader) shortID(sp diag.Span, path, collection, id string) {
	for _, p := range subscription.CheckID(id, strings.TrimSuffix(collection, "s")) {
		at := sp
		if a, b := sp.Start.Offset()+1, sp.End.Offset()-1; p.End > p.Start && a <= b && b <= len(r.req.Text) && r.req.Text[a-1] == '"' && r.req.Text[a:b] == id {
			at = diag.SpanOf(a+p.Start, a+p.End)
		}
		r.errorf(at, path, "resource-name", p.Message, p.Hint)
	}
}

// eval evaluates an attribute's expression; false when its value is
// unknown (said once, at the expression) or wrong (an error).
func (r *reader) eval(e hclsyntax.Expression, path, name string) (cty.Value, bool) {
	v, why := r.resolve(e, 0)
	if why != "" {
		if strings.HasPrefix(why, "!") {
			r.errorf(span(e.Range()), path, "terraform-bad-value", why[1:], "")
			return cty.NilVal, false
		}
		if strings.HasPrefix(why, "~") {
			r.tooCostly(span(e.Range()), path, name)
			return cty.NilVal, false
		}
		r.markUnknown(path, span(e.Range()), name+" "+why+": subplay does not know its value", "write the value itself to have it checked")
		return cty.NilVal, false
	}
	return v, true
}

// tooCostly says that subplay's bound on evaluating, not the user's
// mistake, leaves the value at path unknown: a warning.
func (r *reader) tooCostly(sp diag.Span, path, name string) {
	r.unknown[path] = true
	r.add(diag.Warning, sp, path, "terraform-too-costly", name+" "+tooCostlyWhy[1:]+": subplay does not know its value",
		"write the value itself to have it checked; a subscription's values are rarely more than literals and short references")
}

// affords charges converting v, a value read, to the attribute's type: a
// number costs convertBytes (cty writes even a small one with its 512
// bits), anything else nothing. false, with the warning, when the bound
// is spent (11,500 numeric labels took 0.34 s natively).
func (r *reader) affords(v cty.Value, sp diag.Span, path, name string) bool {
	if v.Type() != cty.Number || r.charge(bound{cost: convertBytes}, nil) {
		return true
	}
	r.tooCostly(sp, path, name)
	return false
}

// resolve evaluates e with the variables, locals and topics the file
// defines. why is "" when the value is known, a reason when it is not,
// and starts with "!" when evaluating fails (an error in the text), "~"
// when subplay's bound on evaluating refused it.
func (r *reader) resolve(e hclsyntax.Expression, depth int) (cty.Value, string) {
	res := r.resolveBound(e, depth)
	return res.v, res.why
}

// tooCostlyWhy is why an expression past the evaluation bound is unknown.
var tooCostlyWhy = "~builds more than subplay evaluates in one text (" + strconv.Itoa(limits.TerraformEvalBytes>>20) + " MiB of values, estimated before evaluating)"

// charge adds an evaluation's bound to what the text has spent (its work,
// and the reader's of going through the value; converting it is charged
// when known, affords); false, with nothing added, when that would pass
// limits.TerraformEvalBytes. What e's own text pays for (nodeBytes a
// byte: a literal, a short reference) is not charged, so a text that spent
// the bound on one attribute still has its plain values read; each
// expression is evaluated once, so that is at most 64 times the text.
func (r *reader) charge(b bound, e hclsyntax.Expression) bool {
	c := add(b.cost, b.size)
	if e != nil {
		rg := e.Range()
		c = max(c-int64(rg.End.Byte-rg.Start.Byte)*nodeBytes, 0)
	}
	if c > limits.TerraformEvalBytes-r.spent {
		return false
	}
	r.spent += c
	return true
}

// literal evaluates an expression that may refer to nothing (a variable's
// default, a key, the provider's alias); false when it is not a value or
// costs more than the bound left.
func (r *reader) literal(e hclsyntax.Expression) (cty.Value, bool) {
	res := r.literalBound(e)
	return res.v, res.why == ""
}

func (r *reader) literalBound(e hclsyntax.Expression) resolution {
	res := r.evaluate(e, nil, nil)
	if res.why == "" {
		res.b = valueBound(res.v) // measured: tighter than the estimate
	}
	return res
}

// evaluate evaluates e in ctx once its estimate, with roots the bounds of
// what it reads, is charged (charge); why says why not, or HCL's error.
func (r *reader) evaluate(e hclsyntax.Expression, roots map[string]bound, ctx *hcl.EvalContext) resolution {
	es := estimator{roots: roots}
	b := es.estimate(e)
	if !r.charge(b, e) {
		return resolution{why: tooCostlyWhy}
	}
	v, diags := e.Value(ctx)
	if diags.HasErrors() {
		return resolution{why: "!" + clause(diags[0].Summary) + ": " + clause(diags[0].Detail)}
	}
	b.cost = 0 // done: reading the value again copies nothing
	return resolution{v: v, b: b}
}

func (r *reader) resolveBound(e hclsyntax.Expression, depth int) resolution {
	unknown := func(why string) resolution { return resolution{why: why} }
	if depth > limits.TerraformMaxLocals {
		return unknown("goes through more than " + strconv.Itoa(limits.TerraformMaxLocals) + " locals")
	}
	if fn := findCall(e); fn != "" {
		return unknown("calls " + fn + "(), a function Terraform evaluates")
	}
	roots := map[string]bound{}
	vars, locals, topics := map[string]cty.Value{}, map[string]cty.Value{}, map[string]cty.Value{}
	for _, t := range e.Variables() {
		root := t.RootName()
		attrName := func(i int) string {
			if len(t) > i {
				if a, ok := t[i].(hcl.TraverseAttr); ok {
					return a.Name
				}
			}
			return ""
		}
		n := attrName(1)
		switch root {
		case "var":
			a := r.vars[n]
			if a == nil {
				if r.noDef[n] {
					return unknown("is var." + n + ", a variable without default")
				}
				return unknown("is var." + n + ", which the text does not declare")
			}
			res, ok := r.defaults[n]
			if !ok {
				res = r.literalBound(a.Expr)
				if res.why == "" && !res.v.IsWhollyKnown() {
					res.why = "!"
				}
				r.defaults[n] = res
			}
			switch {
			case strings.HasPrefix(res.why, "~"):
				return res
			case res.why != "":
				return unknown("is var." + n + ", whose default is not a plain value")
			}
			vars[n], roots["var."+n] = res.v, res.b
		case "local":
			a := r.local[n]
			if a == nil {
				return unknown("is local." + n + ", which the text does not define")
			}
			res, ok := r.resolved[n]
			if !ok {
				if r.resolving[n] {
					return unknown("!local." + n + " refers to itself")
				}
				r.resolving[n] = true
				res = r.resolveBound(a.Expr, depth+1)
				delete(r.resolving, n)
				r.resolved[n] = res
			}
			if res.why != "" {
				return unknown(res.why)
			}
			locals[n], roots["local."+n] = res.v, res.b
		case TopicType:
			body := r.topics[n]
			field := attrName(2)
			if body == nil {
				return unknown("refers to " + TopicType + "." + n + ", which the text does not define")
			}
			if field != "id" && field != "name" && field != "project" {
				return unknown("refers to " + TopicType + "." + n + "." + field + ", which the provider computes")
			}
			// Once per topic: names that refer to other topics' names
			// several times each would be evaluated exponentially often.
			key := TopicType + "." + n
			res, ok := r.resolved[key]
			if !ok {
				if r.resolving[key] {
					return unknown("!" + key + " refers to itself")
				}
				r.resolving[key] = true
				tv, why := r.topic(body, depth)
				delete(r.resolving, key)
				res = resolution{v: tv, why: why}
				if why == "" {
					res.b = valueBound(tv)
				}
				r.resolved[key] = res
			}
			if res.why != "" {
				return unknown(res.why)
			}
			topics[n], roots[key] = res.v, res.b
		default:
			return unknown("refers to " + t.RootName() + ", which Terraform fills in")
		}
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}}
	if len(vars) > 0 {
		ctx.Variables["var"] = cty.ObjectVal(vars)
	}
	if len(locals) > 0 {
		ctx.Variables["local"] = cty.ObjectVal(locals)
	}
	if len(topics) > 0 {
		ctx.Variables[TopicType] = cty.ObjectVal(topics)
	}
	res := r.evaluate(e, roots, ctx)
	if res.why == "" && !res.v.IsWhollyKnown() {
		return unknown("is not known before Terraform applies it")
	}
	return res
}

// topic evaluates a google_pubsub_topic's id, name and project.
func (r *reader) topic(body *hclsyntax.Body, depth int) (cty.Value, string) {
	a := body.Attributes["name"]
	if a == nil {
		return cty.NilVal, "refers to a topic without name"
	}
	name, why := r.resolve(a.Expr, depth+1)
	if why != "" {
		return cty.NilVal, why
	}
	name, err := convert.Convert(name, cty.String)
	if err != nil || name.IsNull() {
		return cty.NilVal, "!the topic's name is not a string"
	}
	project := cty.UnknownVal(cty.String)
	if p := body.Attributes["project"]; p != nil {
		if s, _, why := r.stringAttr(p, ""); why == "" {
			project = cty.StringVal(s)
		}
	} else if pb := r.providers[""]; pb != nil && pb.Attributes["project"] != nil {
		if s, _, why := r.stringAttr(pb.Attributes["project"], ""); why == "" {
			project = cty.StringVal(s)
		}
	}
	id := cty.UnknownVal(cty.String)
	if project.IsKnown() {
		id = cty.StringVal("projects/" + project.AsString() + "/topics/" + name.AsString())
	}
	return cty.ObjectVal(map[string]cty.Value{"id": id, "name": name, "project": project}), ""
}

// findCall returns the name of a function e calls, or "". The scan
// bounded e's depth before it was parsed.
func findCall(e hclsyntax.Expression) string {
	name := ""
	hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		if c, ok := n.(*hclsyntax.FunctionCallExpr); ok && name == "" {
			name = c.Name
		}
		return nil
	})
	return name
}

// listOf lists a few labels, each quoted (they are the user's text), and
// says how many more there are.
func listOf(labels []string) string {
	const most = 5
	quoted := make([]string, 0, most)
	for _, l := range labels[:min(len(labels), most)] {
		quoted = append(quoted, diag.Quote(l))
	}
	if len(labels) <= most {
		return strings.Join(quoted, ", ")
	}
	return strings.Join(quoted, ", ") + " and " + strconv.Itoa(len(labels)-most) + " more"
}

// clause turns one of HCL's sentences ("An argument is required here.")
// into the form of our messages and hints: no trailing period, and a first
// word in lower case unless it is an acronym ("JSON").
func clause(s string) string {
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	if len(s) > 1 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'a' && s[1] <= 'z' {
		s = strings.ToLower(s[:1]) + s[1:]
	}
	return s
}
