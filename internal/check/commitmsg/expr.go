package commitmsg

import (
	"go/ast"
	"strings"
)

// exprString writes a type expression as Go source spells it, enough to
// compare declarations' shapes. It stands in for go/types.ExprString,
// which would bring the whole type checker into the binary for one
// function.
func exprString(e ast.Expr) string {
	var b strings.Builder
	writeExpr(&b, e, 0)
	return b.String()
}

func writeExpr(b *strings.Builder, e ast.Expr, depth int) {
	if depth > 64 {
		b.WriteString("…")
		return
	}
	d := depth + 1
	switch e := e.(type) {
	case nil:
	case *ast.Ident:
		b.WriteString(e.Name)
	case *ast.SelectorExpr:
		writeExpr(b, e.X, d)
		b.WriteString("." + e.Sel.Name)
	case *ast.StarExpr:
		b.WriteString("*")
		writeExpr(b, e.X, d)
	case *ast.ParenExpr:
		b.WriteString("(")
		writeExpr(b, e.X, d)
		b.WriteString(")")
	case *ast.BasicLit:
		b.WriteString(e.Value)
	case *ast.UnaryExpr:
		b.WriteString(e.Op.String())
		writeExpr(b, e.X, d)
	case *ast.BinaryExpr:
		writeExpr(b, e.X, d)
		b.WriteString(" " + e.Op.String() + " ")
		writeExpr(b, e.Y, d)
	case *ast.Ellipsis:
		b.WriteString("...")
		writeExpr(b, e.Elt, d)
	case *ast.ArrayType:
		b.WriteString("[")
		writeExpr(b, e.Len, d)
		b.WriteString("]")
		writeExpr(b, e.Elt, d)
	case *ast.MapType:
		b.WriteString("map[")
		writeExpr(b, e.Key, d)
		b.WriteString("]")
		writeExpr(b, e.Value, d)
	case *ast.ChanType:
		switch e.Dir {
		case ast.SEND:
			b.WriteString("chan<- ")
		case ast.RECV:
			b.WriteString("<-chan ")
		default:
			b.WriteString("chan ")
		}
		writeExpr(b, e.Value, d)
	case *ast.IndexExpr:
		writeExpr(b, e.X, d)
		b.WriteString("[")
		writeExpr(b, e.Index, d)
		b.WriteString("]")
	case *ast.IndexListExpr:
		writeExpr(b, e.X, d)
		b.WriteString("[")
		for i, x := range e.Indices {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, x, d)
		}
		b.WriteString("]")
	case *ast.FuncType:
		b.WriteString("func")
		b.WriteString(funcShape(e))
	case *ast.StructType:
		b.WriteString("struct{")
		writeFields(b, e.Fields, "; ", d)
		b.WriteString("}")
	case *ast.InterfaceType:
		b.WriteString("interface{")
		writeFields(b, e.Methods, "; ", d)
		b.WriteString("}")
	default:
		b.WriteString("?")
	}
}

func writeFields(b *strings.Builder, fl *ast.FieldList, sep string, depth int) {
	if fl == nil {
		return
	}
	for i, f := range fl.List {
		if i > 0 {
			b.WriteString(sep)
		}
		for j, n := range f.Names {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n.Name)
		}
		if ft, ok := f.Type.(*ast.FuncType); ok && len(f.Names) > 0 {
			b.WriteString(funcShape(ft)) // an interface method: name(params) results
			continue
		}
		if len(f.Names) > 0 {
			b.WriteString(" ")
		}
		writeExpr(b, f.Type, depth)
	}
}
