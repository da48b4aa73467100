import React from "react";

type Tone = "neutral" | "success" | "warning" | "danger";

export interface BadgeProps {
  tone?: Tone;
  children: React.ReactNode;
}

export default function Badge({ tone = "neutral", children }: BadgeProps) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
