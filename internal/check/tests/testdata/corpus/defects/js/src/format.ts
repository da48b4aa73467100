export type Style = 'short' | 'long'

export function formatDate(d: Date, style: Style = 'short'): string {
  return style === 'short' ? d.toISOString().slice(0, 10) : d.toString()
}

export const formatTime = (d: Date) => d.toISOString().slice(11, 19)
