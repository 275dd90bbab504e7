import type { RouteObject } from 'react-router';

export const talentPages: RouteObject[] = [];
