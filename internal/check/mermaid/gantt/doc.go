// Package gantt checks Mermaid gantt text, dates read with dayjs's strict formats.
package gantt
