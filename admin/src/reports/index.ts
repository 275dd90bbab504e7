import ReportIcon from '@mui/icons-material/ReportGmailerrorred';
import { createElement } from 'react';
import { ReportList } from './ReportList';
import { ReportShow } from './ReportShow';

/** Misuse reports: the queue by due time, and each case with its match, files, decision and history. */
export function reports(siteUrl?: string) {
  return {
    name: 'reports',
    list: ReportList,
    show: () => createElement(ReportShow, { siteUrl }),
    icon: ReportIcon,
    options: { label: 'Reports' },
    recordRepresentation: 'reference',
  };
}
