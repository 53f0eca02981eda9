import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../testing/render.tsx';
import { RouteErrorBoundary } from './routes/RouteErrorBoundary.tsx';

function Crash(): never {
  throw new Error('Kaboom in the members table');
}

const crashingRoutes = [{ path: '/', element: <Crash />, errorElement: <RouteErrorBoundary /> }];

describe('error boundary', () => {
  it("shows 'TAKE ME BACK TO HOME' and 'REPORT BUG?' when a page crashes", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/', { routes: crashingRoutes });
    expect(await screen.findByRole('button', { name: 'TAKE ME BACK TO HOME' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'REPORT BUG?' })).toBeInTheDocument();
  });

  it('REPORT BUG? copies the error details to the clipboard', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = renderApp('/', { routes: crashingRoutes });
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    await user.click(await screen.findByRole('button', { name: 'REPORT BUG?' }));
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining('Error: Kaboom in the members table'));
    expect(await screen.findByText(/Bug details copied/)).toBeInTheDocument();
  });

  it('shows the details to copy by hand when the clipboard is unavailable', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = renderApp('/', { routes: crashingRoutes });
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(await screen.findByRole('button', { name: 'REPORT BUG?' }));
    expect(await screen.findByText(/Copy these details/)).toBeInTheDocument();
    expect(screen.getByText(/Kaboom in the members table/)).toBeInTheDocument();
  });
});
