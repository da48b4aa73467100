// Package class checks Mermaid classDiagram text: its lexer and parser.
package class
