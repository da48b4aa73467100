package designtokens

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/internal/jsonpos"
)

// family groups the types of the format, Style Dictionary and Tokens
// Studio that hold the same kind of value, for comparing types through
// aliases.
func family(t string) string {
	switch t {
	case "dimension", "sd:size", "spacing", "sizing", "borderRadius", "borderWidth", "fontSizes", "letterSpacing", "paragraphSpacing", "paragraphIndent":
		return "dimension"
	case "number", "sd:number", "opacity":
		return "number"
	case "fontWeights":
		return "fontWeight"
	case "fontFamilies":
		return "fontFamily"
	case "boxShadow":
		return "shadow"
	case "sd:time", "time":
		return "duration"
	case "fontSize", "size":
		return "dimension"
	}
	return t
}

// compatible reports whether a value of type b may stand where type a is
// wanted. Types no one defines are compatible with anything.
func compatible(a, b string) bool {
	if a == "" || b == "" {
		return true
	}
	fa, fb := family(a), family(b)
	if fa == fb {
		return true
	}
	return !(dtcgTypes()[fa] && dtcgTypes()[fb])
}

// problemAt is a problem with one node of a value.
type problemAt struct {
	n    *jsonpos.Node
	msg  string
	warn bool // the value is understood, but not as the format writes it
}

// vctx validates one token's value.
type vctx struct {
	r   *run
	tok *token
}

func (v *vctx) bad(n *jsonpos.Node, sev check.Severity, msg, fix string) {
	v.tok.file.find(ruleInvalidValue, n, sev, v.tok.name+": "+msg, fix)
}

// check validates n, the value (or a part of the value) of v.tok, as a
// value of type typ; where names the part ("" for the whole value).
func (v *vctx) check(typ string, n *jsonpos.Node, where string) {
	if n == nil {
		return
	}
	if v.r.aliasValue(v.tok, typ, n, where) {
		return
	}
	f := v.tok.file
	lenient := f.dialect == sdict || f.studio
	switch typ {
	case "color":
		if lenient && n.Kind == jsonpos.Object {
			return // Style Dictionary's {r, g, b} or {h, s, l}, for its color transforms
		}
		v.color(n)
	case "fontWeight", "fontWeights":
		v.fontWeight(n)
	}
	if lenient {
		return
	}
	switch typ {
	case "dimension":
		v.measure(n, "dimension", []string{"px", "rem"}, cssLengths())
	case "duration":
		v.measure(n, "duration", []string{"ms", "s"}, nil)
	case "number":
		v.number(n, where)
	case "fontFamily":
		v.fontFamily(n)
	case "cubicBezier":
		v.cubicBezier(n)
	case "strokeStyle":
		v.strokeStyle(n)
	case "border":
		v.composite(n, typ, []part{{"color", "color", must}, {"width", "dimension", must}, {"style", "strokeStyle", must}})
	case "transition":
		v.composite(n, typ, []part{{"duration", "duration", must}, {"delay", "duration", should}, {"timingFunction", "cubicBezier", should}})
	case "typography":
		v.composite(n, typ, []part{{"fontFamily", "fontFamily", must}, {"fontSize", "dimension", must}, {"fontWeight", "fontWeight", should}, {"letterSpacing", "dimension", should}, {"lineHeight", "lineHeight", should}})
	case "shadow":
		if n.Kind == jsonpos.Array {
			if len(n.Elems) == 0 {
				v.bad(n, "", "a shadow list is empty", "give at least one shadow")
			}
			for _, e := range n.Elems {
				v.check("shadow", e, where)
			}
			return
		}
		v.composite(n, typ, []part{{"color", "color", must}, {"offsetX", "dimension", must}, {"offsetY", "dimension", must}, {"blur", "dimension", should}, {"spread", "dimension", should}, {"inset", "boolean", optional}})
	case "gradient":
		if n.Kind != jsonpos.Array {
			v.bad(n, "", "a gradient is a list of stops, not "+kindName(n), `write [{"color": …, "position": 0}, …]`)
			return
		}
		for _, e := range n.Elems {
			if v.r.aliasValue(v.tok, "gradient", e, "stop") {
				continue
			}
			v.composite(e, "gradient stop", []part{{"color", "color", must}, {"position", "number", must}})
			if p := e.Get("position"); p != nil {
				if f, ok := p.Float(); ok && (f < 0 || f > 1) {
					v.bad(p, check.Warning, fmt.Sprintf("a gradient stop at %s is outside [0, 1]; tools clamp it", p.Str), "give a position from 0 to 1")
				}
			}
		}
	case "lineHeight":
		// A number (a multiple of the font size) as the format says; a
		// dimension as the format's open issue #102 proposes and tools
		// (Terrazzo, Style Dictionary) accept.
		if n.Kind == jsonpos.Object {
			v.measure(n, "dimension", []string{"px", "rem"}, cssLengths())
			return
		}
		v.number(n, "lineHeight")
	case "boolean":
		if n.Kind != jsonpos.Bool {
			v.bad(n, "", "inset must be true or false, not "+kindName(n), "write true or false")
		}
	}
}

// part is one part of a composite value.
type part struct {
	name, typ string
	need      need
}

// need says how much a composite value needs a part.
type need int

const (
	optional need = iota
	// should: the format requires it, but CSS and the tools default it
	// (a shadow's blur and spread, a transition's delay): a warning.
	should
	must // nothing stands in for it: an error
)

func (v *vctx) composite(n *jsonpos.Node, typ string, parts []part) {
	if n.Kind != jsonpos.Object {
		v.bad(n, "", fmt.Sprintf("a %s value is an object of %s, not %s", typ, partNames(parts), kindName(n)), "write the value as an object with those parts")
		return
	}
	for _, p := range parts {
		sub := n.Get(p.name)
		if sub == nil {
			switch p.need {
			case must:
				v.bad(n, "", fmt.Sprintf("the %s value has no %s", typ, p.name), "add "+p.name+" ("+p.typ+")")
			case should:
				v.bad(n, check.Warning, fmt.Sprintf("the %s value has no %s, which the format requires (tools default it)", typ, p.name), "add "+p.name+" ("+p.typ+")")
			}
			continue
		}
		v.check(p.typ, sub, p.name)
	}
	for _, m := range n.Members {
		if !hasPart(parts, m.Key) {
			v.tok.file.findAt(ruleUnknownProp, m.KeyOff, "", fmt.Sprintf("%s: %q is not a part of a %s value (%s)", v.tok.name, m.Key, typ, partNames(parts)),
				"remove it, or move it under $extensions")
		}
	}
}

func hasPart(parts []part, name string) bool {
	for _, p := range parts {
		if p.name == name {
			return true
		}
	}
	return false
}

func partNames(parts []part) string {
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = p.name
	}
	return strings.Join(names, ", ")
}

func (v *vctx) color(n *jsonpos.Node) {
	switch n.Kind {
	case jsonpos.String:
		if why := cssColor(n.Str); why != "" {
			v.bad(n, "", why, "write a color: #rrggbb, rgb(), oklch(), or the object {colorSpace, components}")
		}
	case jsonpos.Object:
		for _, p := range objectColor(n) {
			sev := check.Severity("")
			if p.warn {
				sev = check.Warning
			}
			v.bad(p.n, sev, p.msg, "write the color as {\"colorSpace\": \"srgb\", \"components\": [r, g, b], \"hex\": \"#rrggbb\"} with components in range")
		}
	default:
		v.bad(n, "", "a color is a string or a color object, not "+kindName(n), "write a color: #rrggbb, or {colorSpace, components}")
	}
}

// fontWeights are the format's named weights.
var fontWeights = sync.OnceValue(func() map[string]bool {
	return setOf("thin hairline extra-light ultra-light light normal regular book medium semi-bold demi-bold bold extra-bold ultra-bold black heavy extra-black ultra-black")
})

func (v *vctx) fontWeight(n *jsonpos.Node) {
	switch n.Kind {
	case jsonpos.Number:
		if f, _ := n.Float(); f < 1 || f > 1000 {
			v.bad(n, "", fmt.Sprintf("font weight %s is outside 1 to 1000", n.Str), "give a weight from 1 to 1000")
		}
		return
	case jsonpos.String:
		if fontWeights()[n.Str] {
			return
		}
		if f, err := strconv.ParseFloat(n.Str, 64); err == nil {
			if f < 1 || f > 1000 {
				v.bad(n, "", fmt.Sprintf("font weight %s is outside 1 to 1000", n.Str), "give a weight from 1 to 1000")
			} else if v.tok.file.dialect == dtcg && !v.tok.file.studio {
				v.bad(n, check.Warning, fmt.Sprintf("font weight %q is a string; the format wants a number", n.Str), "write "+n.Str+" without quotes")
			}
			return
		}
		if v.tok.file.studio || v.tok.file.dialect == sdict {
			return // Tokens Studio and Style Dictionary take font style names ("Bold Italic")
		}
		fix := "use a number from 1 to 1000, or thin, extra-light, light, normal, medium, semi-bold, bold, extra-bold, black, extra-black (and their aliases)"
		if fontWeights()[strings.ToLower(n.Str)] {
			fix = "the names are lower case: write " + strings.ToLower(n.Str)
		}
		v.bad(n, "", fmt.Sprintf("%q is not a font weight", n.Str), fix)
		return
	}
	v.bad(n, "", "a font weight is a number or a name, not "+kindName(n), "write 400 or \"regular\"")
}

// cssLengths are CSS's length units beyond px and rem: valid CSS, but not
// portable design-token dimensions.
var cssLengths = sync.OnceValue(func() map[string]bool {
	return setOf("em ex ch ic cap lh rlh vw vh vi vb vmin vmax svw svh lvw lvh dvw dvh cqw cqh cqi cqb cqmin cqmax cm mm q in pt pc % dp sp fr")
})

// measure checks a dimension or duration: {value, unit} (2025.10), or a
// string "16px" / "200ms" (earlier drafts).
func (v *vctx) measure(n *jsonpos.Node, typ string, units []string, other map[string]bool) {
	unitList := strings.Join(units, " or ")
	example := 16
	if typ == "duration" {
		example = 200
	}
	fix := fmt.Sprintf(`write {"value": %d, "unit": %q}`, example, units[0])
	switch n.Kind {
	case jsonpos.Object:
		val, unit := n.Get("value"), n.Get("unit")
		if val == nil || val.Kind != jsonpos.Number {
			v.bad(n, "", fmt.Sprintf("a %s object needs a numeric value", typ), fix)
		}
		if unit == nil || unit.Kind != jsonpos.String {
			v.bad(n, "", fmt.Sprintf("a %s object needs a unit (%s), even for 0", typ, unitList), fix)
			return
		}
		v.unit(unit, unit.Str, typ, units, other)
		for _, m := range n.Members {
			if m.Key != "value" && m.Key != "unit" {
				v.tok.file.findAt(ruleUnknownProp, m.KeyOff, "", fmt.Sprintf("%s: %q is not a part of a %s (value, unit)", v.tok.name, m.Key, typ), "remove it")
			}
		}
	case jsonpos.String:
		num, unit := splitNumber(n.Str)
		if num == "" {
			v.bad(n, "", fmt.Sprintf("%q is not a %s (a number and %s)", n.Str, typ, unitList), fix)
			return
		}
		if unit == "" {
			if f, _ := strconv.ParseFloat(num, 64); f != 0 {
				v.tok.file.find(ruleUnit, n, "", fmt.Sprintf("%s: %q has no unit; tools assume one (px, ms) or refuse it", v.tok.name, n.Str), fix)
			}
			return
		}
		v.unit(n, unit, typ, units, other)
	case jsonpos.Number:
		if f, _ := n.Float(); f != 0 {
			v.tok.file.find(ruleUnit, n, "", fmt.Sprintf("%s: %s %s has no unit; tools assume one (px, ms) or refuse it", v.tok.name, typ, n.Str), fix)
		}
	default:
		v.bad(n, "", fmt.Sprintf("a %s is {value, unit} or a string such as \"16px\", not %s", typ, kindName(n)), fix)
	}
}

func (v *vctx) unit(n *jsonpos.Node, unit, typ string, units []string, other map[string]bool) {
	for _, u := range units {
		if unit == u {
			return
		}
	}
	if other[strings.ToLower(unit)] {
		v.tok.file.find(ruleUnit, n, "", fmt.Sprintf("%s: the unit %q is valid CSS but not a design-token %s unit (%s)", v.tok.name, unit, typ, strings.Join(units, ", ")),
			"convert to "+strings.Join(units, " or ")+", or use another type")
		return
	}
	v.bad(n, "", fmt.Sprintf("%q is not a %s unit (%s)", unit, typ, strings.Join(units, ", ")), "use "+strings.Join(units, " or "))
}

// splitNumber splits "16.5px" into "16.5" and "px"; num is "" when s does
// not start with a number.
func splitNumber(s string) (num, unit string) {
	s = strings.TrimSpace(s)
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		if s[i] != '.' {
			digits++
		}
		i++
	}
	if digits == 0 {
		return "", ""
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') && i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] == '-') {
		i += 2
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if _, err := strconv.ParseFloat(s[:i], 64); err != nil {
		return "", ""
	}
	return s[:i], s[i:]
}

func (v *vctx) number(n *jsonpos.Node, where string) {
	switch n.Kind {
	case jsonpos.Number:
		return
	case jsonpos.String:
		if _, err := strconv.ParseFloat(strings.TrimSpace(n.Str), 64); err == nil {
			v.bad(n, check.Warning, fmt.Sprintf("%q is a string; the format wants a JSON number", n.Str), "write "+strings.TrimSpace(n.Str)+" without quotes")
			return
		}
	}
	what := "a number"
	if where == "lineHeight" {
		what = "lineHeight (a number, the multiple of the font size, or a dimension)"
	}
	v.bad(n, "", fmt.Sprintf("%s is not %s", describe(n), what), "write a JSON number")
}

func describe(n *jsonpos.Node) string {
	if n.Kind == jsonpos.String {
		return strconv.Quote(n.Str)
	}
	return kindName(n)
}

func (v *vctx) fontFamily(n *jsonpos.Node) {
	switch n.Kind {
	case jsonpos.String:
		if strings.TrimSpace(n.Str) == "" {
			v.bad(n, "", "the font family is empty", "name a font")
		}
		return
	case jsonpos.Array:
		if len(n.Elems) == 0 {
			v.bad(n, "", "the font family list is empty", "name at least one font")
		}
		for _, e := range n.Elems {
			if v.r.aliasValue(v.tok, "fontFamily", e, "font") {
				continue
			}
			if e.Kind != jsonpos.String {
				v.bad(e, "", "a font family list holds font names, not "+kindName(e), "write each font as a string")
			}
		}
		return
	}
	v.bad(n, "", "a font family is a name or a list of names, not "+kindName(n), `write "Inter" or ["Inter", "sans-serif"]`)
}

func (v *vctx) cubicBezier(n *jsonpos.Node) {
	if n.Kind != jsonpos.Array {
		v.bad(n, "", "a cubic Bézier is four numbers [x1, y1, x2, y2], not "+kindName(n), "write [0.4, 0, 0.2, 1]")
		return
	}
	if len(n.Elems) != 4 {
		v.bad(n, "", fmt.Sprintf("a cubic Bézier has four numbers, not %d", len(n.Elems)), "write [x1, y1, x2, y2]")
		return
	}
	for i, e := range n.Elems {
		f, ok := e.Float()
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			v.bad(e, "", fmt.Sprintf("point %d of the cubic Bézier is %s, not a number", i+1, describe(e)), "write a number")
			continue
		}
		if (i == 0 || i == 2) && (f < 0 || f > 1) {
			v.bad(e, "", fmt.Sprintf("x%d of the cubic Bézier is %s, outside [0, 1]", i/2+1, e.Str), "keep the x coordinates (the first and third numbers) from 0 to 1")
		}
	}
}

var strokeStyles = sync.OnceValue(func() map[string]bool { return setOf("solid dashed dotted double groove ridge outset inset") })

func (v *vctx) strokeStyle(n *jsonpos.Node) {
	switch n.Kind {
	case jsonpos.String:
		if !strokeStyles()[n.Str] {
			v.bad(n, "", fmt.Sprintf("%q is not a stroke style", n.Str), "use solid, dashed, dotted, double, groove, ridge, outset or inset, or {dashArray, lineCap}")
		}
	case jsonpos.Object:
		da, lc := n.Get("dashArray"), n.Get("lineCap")
		switch {
		case da == nil:
			v.bad(n, "", "a stroke style object needs a dashArray", "add dashArray: a list of dimensions")
		case da.Kind != jsonpos.Array || len(da.Elems) == 0:
			v.bad(da, "", "dashArray is a non-empty list of dimensions", "list the dash and gap lengths")
		default:
			for _, e := range da.Elems {
				v.check("dimension", e, "dashArray")
			}
		}
		if lc == nil {
			v.bad(n, "", "a stroke style object needs a lineCap", "add lineCap: round, butt or square")
		} else if lc.Kind != jsonpos.String || (lc.Str != "round" && lc.Str != "butt" && lc.Str != "square") {
			v.bad(lc, "", fmt.Sprintf("lineCap is %s, not round, butt or square", describe(lc)), "use round, butt or square")
		}
		for _, m := range n.Members {
			if m.Key != "dashArray" && m.Key != "lineCap" {
				v.tok.file.findAt(ruleUnknownProp, m.KeyOff, "", fmt.Sprintf("%s: %q is not a part of a strokeStyle value (dashArray, lineCap)", v.tok.name, m.Key), "remove it")
			}
		}
	default:
		v.bad(n, "", "a stroke style is a name or {dashArray, lineCap}, not "+kindName(n), `write "solid"`)
	}
}
