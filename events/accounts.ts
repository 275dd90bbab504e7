/** Roles a person may choose at sign-up. `admin` is granted by an administrator, never chosen. */
export const SELF_SIGNUP_ROLES = ['client', 'talent'] as const;
export const ROLE_ATTRIBUTE = 'custom:role';
