import type { RouteObject } from 'react-router';

export const mainPages: RouteObject[] = [];
