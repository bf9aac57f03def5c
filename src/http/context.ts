// The dependencies every route plugin receives.
import type { Config } from '../config/index.ts';
import type { OAuthContext } from '../oauth/context.ts';
import type { ServiceContext } from '../services/context.ts';
import type { DatabaseHandle } from '../storage/database.ts';

export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  oauth: OAuthContext;
  services: ServiceContext;
}
