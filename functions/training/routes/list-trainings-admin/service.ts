import type { AdminTrainingsResponse } from '../../../../events/training';
import { listTrainings, type AdminTrainingDeps } from '../../admin-trainings';

/** `GET /admin/talent/{id}/trainings`: the talent's trainings with state, duration, cost, logs and samples (the list rollback answers too). */
export const trainingsForAdmin = (deps: AdminTrainingDeps, talentId: string | undefined): Promise<AdminTrainingsResponse> => listTrainings(deps, talentId);
