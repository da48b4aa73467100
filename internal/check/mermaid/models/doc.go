// Package models checks Mermaid's model diagrams: architecture, C4, requirementDiagram,
// gitGraph, mindmap and kanban.
package models
