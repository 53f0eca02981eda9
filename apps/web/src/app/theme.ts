import { createTheme, type MantineColorsTuple } from '@mantine/core';

const brand: MantineColorsTuple = [
  '#eef0ff',
  '#dcdfff',
  '#b7bcfb',
  '#8f96f6',
  '#6d75f1',
  '#5860ee',
  '#4c54ed',
  '#3d45d3',
  '#343cbd',
  '#2832a7',
];

// 'Inter Variable' is the shipped font (@fontsource-variable/inter, imported in main.tsx).
const fontStack =
  "'Inter Variable', Inter, -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Liberation Sans', 'Noto Sans', system-ui, sans-serif";

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 6, dark: 4 },
  colors: { brand },
  fontFamily: fontStack,
  fontFamilyMonospace: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
  headings: { fontFamily: fontStack, fontWeight: '700' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { fw: 600 } },
    Paper: { defaultProps: { radius: 'lg' } },
    Card: { defaultProps: { radius: 'lg' } },
    TextInput: { defaultProps: { size: 'md' } },
    PasswordInput: { defaultProps: { size: 'md' } },
    Select: { defaultProps: { size: 'md' } },
    // A closed dropdown is not in the page. Mantine keeps it mounted and hidden by default, and each hidden list
    // then renders its options and places itself: Analytics has ten such filters.
    Combobox: { defaultProps: { keepMounted: false } },
    // Dropdowns (menus, selects, popovers) above the toasts (zIndex 1000 in providers.tsx): a toast below the header
    // can reach into an open dropdown, and must not cover its items (a click there would land on the toast).
    Popover: { defaultProps: { zIndex: 1100 } },
    // Toasts: a named close button and a message at AA contrast (Mantine's gray-6 reads at about 3.3:1).
    // Input errors at AA contrast on white and on a filled fieldset's gray (Mantine's red-6 reads at about 3.3:1).
    InputWrapper: { styles: { error: { color: 'var(--mantine-color-red-9)' } } },
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      styles: { description: { color: 'var(--mantine-color-gray-7)' } },
    },
    Modal: {
      // The close button is an icon: it needs a name for screen readers (axe: button-name).
      // A dimmed page behind, not a blurred one: a blur is redrawn whole whenever anything under it changes (a
      // spinner, a live count), which without a GPU kept a core busy for as long as a dialog stayed open.
      defaultProps: {
        overlayProps: { backgroundOpacity: 0.45 },
        closeButtonProps: { 'aria-label': 'Close' },
      },
      styles: { title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } },
    },
  },
});
