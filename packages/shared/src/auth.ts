import { z } from 'zod';
import { workspaceSchema } from './workspace.ts';
import { COUNTRIES } from './countries.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const emailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .email('Enter a valid email address, like name@example.com')
  .transform((v) => v.toLowerCase());

const password = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

/** POST /api/v0/auth/signup */
export const signupBody = z.object({
  email: emailSchema,
  password,
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(2, 'Username must be 2 to 40 characters')
    .max(40, 'Username must be 2 to 40 characters'),
  country: z
    .string({ error: 'Please select you country' })
    .trim()
    .min(1, 'Please select you country')
    .refine((c) => COUNTRIES.includes(c), 'Please select you country'),
});
export type SignupBody = z.input<typeof signupBody>;

/** POST /api/v0/auth/login. `remember` is 'Keep me signed in' (longer token life). */
export const loginBody = z.object({
  email: emailSchema,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX),
  remember: z.boolean().optional(),
});
export type LoginBody = z.input<typeof loginBody>;

/** Login response. */
export const loginResponse = z.object({
  token: z.string(),
  userid: z.string(),
  workspaces: z.array(workspaceSchema),
  username: z.string(),
  email: z.string(),
  country: z.string(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

/** POST /api/v0/auth/logout */
export const logoutBody = z.object({ email: z.string().optional(), token: z.string().optional() });

/** POST /api/v0/auth/inititatechangepassword (the API's spelling) */
export const initiateChangePasswordBody = z.object({ email: emailSchema });

/** POST /api/v0/auth/resetpassword: completes the e-mailed reset link. */
export const resetPasswordBody = z.object({
  token: z.string({ error: 'The reset link is incomplete' }).min(1, 'The reset link is incomplete'),
  password,
});

/** POST /api/v0/auth/verifyemail: completes the e-mailed verification link. */
export const verifyEmailBody = z.object({
  token: z
    .string({ error: 'The verification link is incomplete' })
    .min(1, 'The verification link is incomplete'),
});

/** POST /api/v0/auth/resendverification */
export const resendVerificationBody = z.object({ email: emailSchema });

/** GET /api/v0/auth/me */
export const meResponse = loginResponse.omit({ token: true });
export type MeResponse = z.infer<typeof meResponse>;

/** Fixed answers, shared so the web and the tests use the same words. */
export const AUTH_TEXT = {
  signupDone: 'Signed up successfully ,please check your email for verification',
  resetRequested: 'If an account exists for that email, we have sent a link to reset its password.',
  resetDone: 'Your password has been changed. You can log in now.',
  verifyDone: 'Your email is verified. You can log in now.',
  verificationResent: 'If that account still needs verifying, we have sent a new verification link.',
  loggedOut: 'Logged out',
  invalidCredentials: 'Incorrect email or password',
  emailNotVerified: 'Please verify your email first: open the link we sent you when you signed up.',
} as const;

/** GET /public/config: whether this is the demo, and its sign-in (the login page offers it). */
export const publicConfigResponse = z.object({
  demoMode: z.boolean(),
  demoEmail: z.string().nullable(),
  demoPassword: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigResponse>;
