import type { RouteObject } from 'react-router';

export const foundingPages: RouteObject[] = [];
