import { useId } from 'react';
import { Group, Text } from '@mantine/core';

type LogoMarkProps = { size?: number; inverted?: boolean };

/** The Flywheel mark: a spinning wheel with a gap, on the brand gradient (white tile on dark grounds). */
export function LogoMark({ size = 32, inverted = false }: LogoMarkProps) {
  const ink = inverted ? '#4c54ed' : '#fff';
  // A unique gradient id per mark: a duplicate id inside a hidden (display: none) mark would blank the others.
  const gradient = `flywheel-mark-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#7c3aed" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={inverted ? '#fff' : `url(#${gradient})`} />
      <circle
        cx="16"
        cy="16"
        r="8.5"
        fill="none"
        stroke={ink}
        strokeWidth="2.6"
        strokeDasharray="38 16"
        strokeLinecap="round"
        transform="rotate(-40 16 16)"
      />
      <circle cx="16" cy="16" r="2.6" fill={ink} />
    </svg>
  );
}

type LogoProps = { size?: number; inverted?: boolean };

export function Logo({ size = 32, inverted = false }: LogoProps) {
  return (
    <Group gap={10} wrap="nowrap">
      <LogoMark size={size} inverted={inverted} />
      <Text
        component="span"
        fw={800}
        fz={size * 0.62}
        lh={1}
        c={inverted ? 'white' : 'dark.8'}
        style={{ letterSpacing: '-0.02em' }}
      >
        Flywheel
      </Text>
    </Group>
  );
}
