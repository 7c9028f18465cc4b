// Types for the two undici modules that client.ts loads by path (see there), taken from undici's own.
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import type { EnvHttpProxyAgent as Agent } from 'undici';

  const EnvHttpProxyAgent: typeof Agent;
  export default EnvHttpProxyAgent;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** Dispatcher.request, called with the dispatcher as `this`. */
  export default function request(
    this: Dispatcher,
    options: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>;
}

declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent as UndiciAgent } from 'undici';

  const Agent: typeof UndiciAgent;
  export default Agent;
}
