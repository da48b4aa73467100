// Package charts checks Mermaid's data charts: pie, quadrantChart, xychart, sankey,
// packet (and info), journey and timeline. Package mermaid detects the type and calls Parse*.
package charts
