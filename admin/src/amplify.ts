import { Amplify } from 'aws-amplify';
import type { AdminConfig } from './config';

/**
 * Points Amplify Auth at the stage's user pool. `userPoolEndpoint` is set only on the local
 * twin (cognito-local); on AWS Amplify derives the endpoint from the pool id's region.
 */
export function configureAuth(config: AdminConfig): void {
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.userPoolEndpoint ? { userPoolEndpoint: config.userPoolEndpoint } : {}),
      },
    },
  });
}
