// Package er checks Mermaid erDiagram text: its lexer and parser.
package er
