import type { StatementDetail } from '../../../../events/royalties';
import type { AccountCaller } from '../../../shared/auth';
import { talentStatement, type TalentStatementDeps } from '../../talent-statement';

/** `GET /me/statements/{id}`: one of the caller's statements with its lines (404 for another talent's). */
export const myStatement = (deps: TalentStatementDeps, caller: AccountCaller, id: string | undefined): Promise<StatementDetail> => talentStatement(deps, caller, id);
