package designtokens

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/internal/check/internal/jsonpos"
)

// namedColors are CSS Color 4's named colors, transparent and currentcolor.
var namedColors = sync.OnceValue(func() map[string]bool {
	return setOf("aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen transparent currentcolor")
})

func setOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// cssColor checks a color written as CSS writes it: #rgb, #rgba,
// #rrggbb, #rrggbbaa, a named color, or rgb(), rgba(), hsl(), hsla(),
// hwb(), lab(), lch(), oklab(), oklch(), color(). It returns why not, ""
// when it is one.
func cssColor(s string) string {
	t := strings.TrimSpace(s)
	if t == "" {
		return "an empty string is no color"
	}
	if t[0] == '#' {
		h := t[1:]
		for i := 0; i < len(h); i++ {
			if !isHex(h[i]) {
				return fmt.Sprintf("%q is not a hex color: %q is no hexadecimal digit", s, h[i])
			}
		}
		switch len(h) {
		case 3, 4, 6, 8:
			return ""
		}
		return fmt.Sprintf("%q has %d hex digits; a hex color has 3, 4, 6 or 8", s, len(h))
	}
	lower := strings.ToLower(t)
	if namedColors()[lower] {
		return ""
	}
	open := strings.IndexByte(lower, '(')
	if open < 0 || !strings.HasSuffix(lower, ")") {
		return fmt.Sprintf("%q is not a color (a hex color, a CSS color function such as rgb() or oklch(), or a named color)", s)
	}
	fn, body := lower[:open], lower[open+1:len(lower)-1]
	if strings.ContainsAny(body, "()") {
		// var(), calc(), or relative color syntax: not checked further.
		return ""
	}
	args, alpha, ok := colorArgs(body)
	if !ok {
		return fmt.Sprintf("%q: the arguments of %s() are malformed", s, fn)
	}
	switch fn {
	case "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch":
		if len(args) != 3 {
			return fmt.Sprintf("%q: %s() takes three components and an optional alpha, not %d", s, fn, len(args)+boolInt(alpha != ""))
		}
	case "color":
		if len(args) != 4 || !cssColorSpaces()[args[0]] {
			return fmt.Sprintf("%q: color() takes a color space (srgb, display-p3, ...) and three components", s)
		}
		args = args[1:]
	default:
		return fmt.Sprintf("%q: %s() is not a CSS color function", s, fn)
	}
	for _, a := range append(args, alpha) {
		if a != "" && !cssNumberish(a) {
			return fmt.Sprintf("%q: %q is not a number, percentage, angle or none", s, a)
		}
	}
	return ""
}

var cssColorSpaces = sync.OnceValue(func() map[string]bool {
	return setOf("srgb srgb-linear display-p3 a98-rgb prophoto-rgb rec2020 xyz xyz-d50 xyz-d65")
})

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// colorArgs splits a CSS color function's arguments: "255, 0, 0, 0.5"
// (legacy, commas) or "255 0 0 / 50%" (modern).
func colorArgs(body string) (args []string, alpha string, ok bool) {
	if strings.Contains(body, ",") {
		for _, p := range strings.Split(body, ",") {
			p = strings.TrimSpace(p)
			if p == "" {
				return nil, "", false
			}
			args = append(args, p)
		}
		if len(args) == 4 {
			alpha, args = args[3], args[:3]
		}
		return args, alpha, true
	}
	main, a, hasAlpha := strings.Cut(body, "/")
	args = strings.Fields(main)
	if hasAlpha {
		alpha = strings.TrimSpace(a)
		if alpha == "" {
			return nil, "", false
		}
	}
	return args, alpha, true
}

func cssNumberish(a string) bool {
	if a == "none" {
		return true
	}
	for _, unit := range []string{"%", "deg", "grad", "rad", "turn"} {
		if strings.HasSuffix(a, unit) {
			a = strings.TrimSuffix(a, unit)
			break
		}
	}
	_, err := strconv.ParseFloat(a, 64)
	return err == nil
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'f')
}

// colorSpaceRanges are the component ranges of the Color module's color
// spaces: [min, max], with maxOpen for a hue (360 excluded).
type compRange struct {
	min, max float64
	maxOpen  bool
}

var (
	unit01 = compRange{0, 1, false}
	pct100 = compRange{0, 100, false}
	hue    = compRange{0, 360, true}
	anyNum = compRange{math.Inf(-1), math.Inf(1), false}
	nonNeg = compRange{0, math.Inf(1), false}
)

var colorSpaces = sync.OnceValue(func() map[string][3]compRange {
	return map[string][3]compRange{
		"srgb":         {unit01, unit01, unit01},
		"srgb-linear":  {unit01, unit01, unit01},
		"hsl":          {hue, pct100, pct100},
		"hwb":          {hue, pct100, pct100},
		"lab":          {pct100, anyNum, anyNum},
		"lch":          {pct100, nonNeg, hue},
		"oklab":        {unit01, anyNum, anyNum},
		"oklch":        {unit01, nonNeg, hue},
		"display-p3":   {unit01, unit01, unit01},
		"a98-rgb":      {unit01, unit01, unit01},
		"prophoto-rgb": {unit01, unit01, unit01},
		"rec2020":      {unit01, unit01, unit01},
		"xyz-d65":      {anyNum, anyNum, anyNum},
		"xyz-d50":      {anyNum, anyNum, anyNum},
	}
})

// objectColor checks the Color module's object form: colorSpace,
// components, optional alpha and hex. It returns problems, each with the
// node it is about.
func objectColor(v *jsonpos.Node) []problemAt {
	var out []problemAt
	cs := v.Get("colorSpace")
	comps := v.Get("components")
	if cs == nil || cs.Kind != jsonpos.String {
		out = append(out, problemAt{n: v, msg: "a color object needs a colorSpace string (srgb, oklch, display-p3, ...)"})
	}
	if comps == nil || comps.Kind != jsonpos.Array {
		out = append(out, problemAt{n: v, msg: "a color object needs a components array"})
	}
	if len(out) > 0 {
		return out
	}
	ranges, known := colorSpaces()[cs.Str]
	if !known {
		return append(out, problemAt{n: cs, msg: fmt.Sprintf("colorSpace %q is not one of the Color module's (srgb, srgb-linear, hsl, hwb, lab, lch, oklab, oklch, display-p3, a98-rgb, prophoto-rgb, rec2020, xyz-d65, xyz-d50)", cs.Str)})
	}
	if len(comps.Elems) != 3 {
		return append(out, problemAt{n: comps, msg: fmt.Sprintf("%s has three components, not %d", cs.Str, len(comps.Elems))})
	}
	for i, c := range comps.Elems {
		if c.Kind == jsonpos.String && c.Str == "none" {
			continue
		}
		f, ok := c.Float()
		if !ok {
			out = append(out, problemAt{n: c, msg: fmt.Sprintf("component %d of a %s color must be a number or \"none\"", i+1, cs.Str)})
			continue
		}
		r := ranges[i]
		if f < r.min || f > r.max || (r.maxOpen && f == r.max) {
			out = append(out, problemAt{n: c, msg: fmt.Sprintf("component %d of a %s color is %s, outside %s", i+1, cs.Str, c.Str, r)})
		}
	}
	if a := v.Get("alpha"); a != nil {
		if f, ok := a.Float(); !ok || f < 0 || f > 1 {
			out = append(out, problemAt{n: a, msg: "alpha must be a number from 0 to 1"})
		}
	}
	if h := v.Get("hex"); h != nil {
		switch {
		case h.Kind != jsonpos.String || h.Str == "" || h.Str[0] != '#' || cssColor(h.Str) != "":
			out = append(out, problemAt{n: h, msg: "hex must be a six-digit CSS hex color (#rrggbb); alpha goes in alpha"})
		case len(h.Str) != 7:
			out = append(out, problemAt{n: h, msg: fmt.Sprintf("hex %q is a CSS color, but the format wants six digits (#rrggbb) and the alpha in alpha", h.Str), warn: true})
		}
	}
	return out
}

func (r compRange) String() string {
	end := "]"
	if r.maxOpen {
		end = ")"
	}
	return fmt.Sprintf("[%g, %g%s", r.min, r.max, end)
}
