import { createContext } from 'react';
import type { AuthContextValue } from './types';

/** Provided by AuthProvider (./AuthProvider.tsx) on account routes only. Holds no auth code itself. */
export const AuthContext = createContext<AuthContextValue | null>(null);
