import { Component, Suspense, type ReactNode } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { preloadable } from './preloadable.tsx';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>{this.state.error.message}</p> : this.props.children;
  }
}

const Hello = ({ name }: { name: string }) => <p>Hello {name}</p>;

describe('preloadable', () => {
  it('renders at once, without its fallback, when its code was preloaded', async () => {
    let loads = 0;
    const Part = preloadable(async () => {
      loads += 1;
      return Hello;
    });
    await Part.preload();
    render(
      <Suspense fallback={<p>Loading part</p>}>
        <Part name="Ada" />
      </Suspense>,
    );
    // In the very first commit: no fallback was shown and replaced (React throttles such reveals by 300 ms).
    expect(screen.getByText('Hello Ada')).toBeInTheDocument();
    expect(screen.queryByText('Loading part')).toBeNull();
    expect(loads).toBe(1);
  });

  it('shows the fallback until its code is in when it was not preloaded, and loads it once', async () => {
    const code = deferred<typeof Hello>();
    let loads = 0;
    const Part = preloadable(() => {
      loads += 1;
      return code.promise;
    });
    render(
      <Suspense fallback={<p>Loading part</p>}>
        <Part name="Ada" />
        <Part name="Grace" />
      </Suspense>,
    );
    expect(screen.getByText('Loading part')).toBeInTheDocument();
    await act(async () => code.resolve(Hello));
    expect(await screen.findByText('Hello Ada')).toBeInTheDocument();
    expect(screen.getByText('Hello Grace')).toBeInTheDocument();
    expect(loads).toBe(1);
    await Part.preload();
    expect(loads).toBe(1);
  });

  it('lets an error boundary show a chunk that failed to load', async () => {
    const Part = preloadable<{ name: string }>(() =>
      Promise.reject(new Error('Failed to fetch dynamically imported module')),
    );
    await Part.preload().catch(() => undefined);
    render(
      <ErrorBoundary>
        <Suspense fallback={<p>Loading part</p>}>
          <Part name="Ada" />
        </Suspense>
      </ErrorBoundary>,
    );
    expect(await screen.findByText('Failed to fetch dynamically imported module')).toBeInTheDocument();
  });
});
