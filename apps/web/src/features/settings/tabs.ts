import type { ComponentType, LazyExoticComponent } from 'react';

/**
 * One Settings tab: the path segment, the label and the panel (its own chunk). The list is composed in
 * app/routes/settings-pages.tsx, since the panels come from several features (a feature never imports another).
 */
export type SettingsTab = {
  value: string;
  label: string;
  Panel: LazyExoticComponent<ComponentType>;
};
