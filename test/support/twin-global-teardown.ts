import { teardownSharedTwin } from './twin-global-setup';

export default teardownSharedTwin;
