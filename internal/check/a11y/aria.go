package a11y

import "sync"

// WAI-ARIA 1.2 (https://www.w3.org/TR/wai-aria-1.2/), with the DPUB and
// Graphics modules' roles and the roles ARIA 1.3 adds.

var ariaRoles = sync.OnceValue(func() map[string]bool {
	return set("alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox " +
		"complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid gridcell group " +
		"heading img image insertion link list listbox listitem log main mark marquee math menu menubar menuitem menuitemcheckbox " +
		"menuitemradio meter navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup " +
		"rowheader scrollbar search searchbox separator slider spinbutton status strong subscript suggestion superscript switch tab table " +
		"tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem comment " +
		"doc-abstract doc-acknowledgments doc-afterword doc-appendix doc-backlink doc-biblioentry doc-bibliography doc-biblioref " +
		"doc-chapter doc-colophon doc-conclusion doc-cover doc-credit doc-credits doc-dedication doc-endnote doc-endnotes doc-epigraph " +
		"doc-epilogue doc-errata doc-example doc-footnote doc-foreword doc-glossary doc-glossref doc-index doc-introduction doc-noteref " +
		"doc-notice doc-pagebreak doc-pagefooter doc-pageheader doc-pagelist doc-part doc-preface doc-prologue doc-pullquote doc-qna " +
		"doc-subtitle doc-tip doc-toc graphics-document graphics-object graphics-symbol")
})

var abstractRoles = sync.OnceValue(func() map[string]bool {
	return set("command composite input landmark range roletype section sectionhead select structure widget window")
})

var ariaAttrs = sync.OnceValue(func() map[string]bool {
	return set("aria-activedescendant aria-atomic aria-autocomplete aria-braillelabel aria-brailleroledescription aria-busy " +
		"aria-checked aria-colcount aria-colindex aria-colindextext aria-colspan aria-controls aria-current aria-describedby " +
		"aria-description aria-details aria-disabled aria-dropeffect aria-errormessage aria-expanded aria-flowto aria-grabbed " +
		"aria-haspopup aria-hidden aria-invalid aria-keyshortcuts aria-label aria-labelledby aria-level aria-live aria-modal " +
		"aria-multiline aria-multiselectable aria-orientation aria-owns aria-placeholder aria-posinset aria-pressed aria-readonly " +
		"aria-relevant aria-required aria-roledescription aria-rowcount aria-rowindex aria-rowindextext aria-rowspan aria-selected " +
		"aria-setsize aria-sort aria-valuemax aria-valuemin aria-valuenow aria-valuetext")
})

// valueKind is the type of an ARIA attribute's value.
type valueKind int

const (
	vBool valueKind = iota + 1
	vBoolUndefined
	vTristate
	vInteger
	vNumber
	vToken
	vTokens
	vIDRef
	vIDRefs
)

type attrValue struct {
	kind   valueKind
	tokens map[string]bool
}

var ariaValues = sync.OnceValue(func() map[string]attrValue {
	return map[string]attrValue{
		"aria-atomic": {kind: vBool}, "aria-busy": {kind: vBool}, "aria-disabled": {kind: vBool}, "aria-modal": {kind: vBool},
		"aria-multiline": {kind: vBool}, "aria-multiselectable": {kind: vBool}, "aria-readonly": {kind: vBool}, "aria-required": {kind: vBool},
		"aria-expanded": {kind: vBoolUndefined}, "aria-grabbed": {kind: vBoolUndefined}, "aria-hidden": {kind: vBoolUndefined},
		"aria-selected": {kind: vBoolUndefined},
		"aria-checked":  {kind: vTristate}, "aria-pressed": {kind: vTristate},
		"aria-colcount": {kind: vInteger}, "aria-colindex": {kind: vInteger}, "aria-colspan": {kind: vInteger}, "aria-level": {kind: vInteger},
		"aria-posinset": {kind: vInteger}, "aria-rowcount": {kind: vInteger}, "aria-rowindex": {kind: vInteger}, "aria-rowspan": {kind: vInteger},
		"aria-setsize":  {kind: vInteger},
		"aria-valuemax": {kind: vNumber}, "aria-valuemin": {kind: vNumber}, "aria-valuenow": {kind: vNumber},
		"aria-autocomplete":     {kind: vToken, tokens: set("inline list both none")},
		"aria-current":          {kind: vToken, tokens: set("page step location date time true false")},
		"aria-haspopup":         {kind: vToken, tokens: set("false true menu listbox tree grid dialog")},
		"aria-invalid":          {kind: vToken, tokens: set("grammar false spelling true")},
		"aria-live":             {kind: vToken, tokens: set("assertive off polite")},
		"aria-orientation":      {kind: vToken, tokens: set("horizontal undefined vertical")},
		"aria-sort":             {kind: vToken, tokens: set("ascending descending none other")},
		"aria-dropeffect":       {kind: vTokens, tokens: set("copy execute link move none popup")},
		"aria-relevant":         {kind: vTokens, tokens: set("additions all removals text")},
		"aria-activedescendant": {kind: vIDRef}, "aria-errormessage": {kind: vIDRef},
		"aria-controls": {kind: vIDRefs}, "aria-describedby": {kind: vIDRefs}, "aria-details": {kind: vIDRefs}, "aria-flowto": {kind: vIDRefs},
		"aria-labelledby": {kind: vIDRefs}, "aria-owns": {kind: vIDRefs},
	}
})

// roleAttrs are the states and properties that only some roles support
// (WAI-ARIA 1.2, each role's "Supported States and Properties" with those
// it inherits); the rest are global.
var roleAttrs = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"aria-checked":          set("checkbox menuitemcheckbox menuitemradio option radio switch treeitem"),
		"aria-pressed":          set("button"),
		"aria-selected":         set("gridcell option row tab columnheader rowheader treeitem"),
		"aria-expanded":         set("application button checkbox combobox gridcell link listbox menuitem menuitemcheckbox menuitemradio row rowheader columnheader tab treeitem switch"),
		"aria-level":            set("heading listitem row treeitem comment"),
		"aria-multiselectable":  set("grid listbox tablist tree treegrid"),
		"aria-multiline":        set("textbox searchbox"),
		"aria-placeholder":      set("textbox searchbox"),
		"aria-autocomplete":     set("combobox searchbox textbox"),
		"aria-readonly":         set("checkbox combobox grid gridcell listbox radiogroup slider spinbutton textbox searchbox columnheader rowheader treegrid menuitemcheckbox menuitemradio switch"),
		"aria-required":         set("checkbox combobox gridcell listbox radiogroup spinbutton textbox searchbox tree treegrid columnheader rowheader switch"),
		"aria-sort":             set("columnheader rowheader"),
		"aria-modal":            set("dialog alertdialog"),
		"aria-valuenow":         set("meter progressbar scrollbar slider spinbutton separator"),
		"aria-valuemin":         set("meter progressbar scrollbar slider spinbutton separator"),
		"aria-valuemax":         set("meter progressbar scrollbar slider spinbutton separator"),
		"aria-valuetext":        set("meter progressbar scrollbar slider spinbutton separator"),
		"aria-orientation":      set("scrollbar select separator slider tablist toolbar listbox menu menubar radiogroup tree treegrid"),
		"aria-activedescendant": set("application combobox grid group listbox menu menubar radiogroup row searchbox select spinbutton tablist textbox toolbar tree treegrid"),
		"aria-colcount":         set("table grid treegrid"),
		"aria-rowcount":         set("table grid treegrid"),
		"aria-colindex":         set("cell columnheader gridcell row rowheader"),
		"aria-colspan":          set("cell columnheader gridcell rowheader"),
		"aria-rowindex":         set("cell columnheader gridcell row rowheader"),
		"aria-rowspan":          set("cell columnheader gridcell rowheader"),
		"aria-posinset":         set("article listitem menuitem menuitemcheckbox menuitemradio option radio row tab treeitem comment"),
		"aria-setsize":          set("article listitem menuitem menuitemcheckbox menuitemradio option radio row tab treeitem comment"),
	}
})

// implicitRole is the role an element has without a role attribute (HTML
// Accessibility API Mappings), "" where it depends on context this checker
// does not read (header, footer, section, select) or there is none.
func implicitRole(n *node) string {
	switch n.tag {
	case "a", "area":
		if n.has("href") {
			return "link"
		}
		return ""
	case "article":
		return "article"
	case "aside":
		return "complementary"
	case "button":
		return "button"
	case "datalist":
		return "listbox"
	case "details", "fieldset", "optgroup", "address", "hgroup":
		return "group"
	case "dialog":
		return "dialog"
	case "figure":
		return "figure"
	case "form":
		return "form"
	case "h1", "h2", "h3", "h4", "h5", "h6":
		return "heading"
	case "hr":
		return "separator"
	case "img":
		if alt, ok := n.attr("alt"); ok && alt == "" {
			return ""
		}
		return "img"
	case "input":
		t, _ := n.attr("type")
		switch lower(t) {
		case "button", "submit", "reset", "image":
			return "button"
		case "checkbox":
			return "checkbox"
		case "radio":
			return "radio"
		case "range":
			return "slider"
		case "number":
			return "spinbutton"
		case "search":
			if !n.has("list") {
				return "searchbox"
			}
		case "", "text", "email", "tel", "url":
			if !n.has("list") {
				return "textbox"
			}
			return "combobox"
		}
		return ""
	case "li":
		return "listitem"
	case "main":
		return "main"
	case "math":
		return "math"
	case "menu", "ol", "ul":
		return "list"
	case "nav":
		return "navigation"
	case "option":
		return "option"
	case "output":
		return "status"
	case "progress":
		return "progressbar"
	case "meter":
		return "meter"
	case "search":
		return "search"
	case "table":
		return "table"
	case "tbody", "thead", "tfoot":
		return "rowgroup"
	case "td":
		return "cell"
	case "textarea":
		return "textbox"
	case "th":
		return "columnheader"
	case "tr":
		return "row"
	case "p":
		return "paragraph"
	case "blockquote":
		return "blockquote"
	case "code":
		return "code"
	case "dd":
		return "definition"
	case "dfn":
		return "term"
	case "em":
		return "emphasis"
	case "strong":
		return "strong"
	case "del", "s":
		return "deletion"
	case "ins":
		return "insertion"
	case "sub":
		return "subscript"
	case "sup":
		return "superscript"
	case "time":
		return "time"
	case "b", "i", "span", "div", "bdi", "bdo", "data", "q", "samp", "small", "u":
		return "generic"
	}
	return ""
}

// autofill tokens of the HTML autocomplete attribute
// (https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#autofill).
var autofillFields = sync.OnceValue(func() map[string]bool {
	return set("name honorific-prefix given-name additional-name family-name honorific-suffix nickname username " +
		"new-password current-password one-time-code organization-title organization street-address address-line1 address-line2 " +
		"address-line3 address-level4 address-level3 address-level2 address-level1 country country-name postal-code cc-name " +
		"cc-given-name cc-additional-name cc-family-name cc-number cc-exp cc-exp-month cc-exp-year cc-csc cc-type " +
		"transaction-currency transaction-amount language bday bday-day bday-month bday-year sex url photo")
})

// contactFields may follow home, work, mobile, fax or pager.
var contactFields = sync.OnceValue(func() map[string]bool {
	return set("tel tel-country-code tel-national tel-area-code tel-local tel-local-prefix tel-local-suffix tel-extension email impp")
})

func set(words string) map[string]bool {
	m := map[string]bool{}
	start := -1
	for i := 0; i <= len(words); i++ {
		if i == len(words) || words[i] == ' ' {
			if start >= 0 {
				m[words[start:i]] = true
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	return m
}
