import { z } from 'zod';

// The page runs under a Content-Security-Policy without 'unsafe-eval': zod must not probe `new Function`
// (its JIT for object schemas), which the browser reports as a CSP violation. Imported first by main.tsx.
z.config({ jitless: true });
