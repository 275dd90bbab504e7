import { App, type AppProps } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { Validations } from 'aws-cdk-lib';
import { MarketplaceStack } from './marketplace-stack';
import { stageConfig } from './platform/stage-config';

export interface BuiltApp {
  app: App;
  stack: MarketplaceStack;
}

/** Builds the app for the stage its context names; used by `cdk`, the tests and the twin. */
export function buildApp(props: AppProps = {}, options: { nag?: boolean } = {}): BuiltApp {
  const app = new App(props);
  const config = stageConfig(app);
  const stack = new MarketplaceStack(app, `Marketplace-${config.stage}`, config, {
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
    description: `Ethical AI image marketplace (${config.stage})`,
  });
  if (options.nag ?? true) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
