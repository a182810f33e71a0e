import type { SignInBody } from '@omnibot/contracts';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client';

const SignInResultSchema = z.object({
  status: z.literal(true),
  user: z.object({ id: z.string(), email: z.string(), name: z.string() }),
});

/** Sets the httpOnly session cookie; the token itself never reaches scripts. */
const signIn = (body: SignInBody) =>
  api.post('/api/auth/sign-in/email', body, { schema: SignInResultSchema });

export const useSignIn = () => useMutation({ mutationFn: signIn });
