// Types for the undici modules that dispatcher.ts and client.ts load by path (see there), taken from undici's own.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent as UndiciAgent } from 'undici';

  const Agent: typeof UndiciAgent;
  export default Agent;
}

declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool as UndiciPool } from 'undici';

  const Pool: typeof UndiciPool;
  export default Pool;
}

declare module 'undici/lib/dispatcher/proxy-agent.js' {
  import type { ProxyAgent as UndiciProxyAgent } from 'undici';

  const ProxyAgent: typeof UndiciProxyAgent;
  export default ProxyAgent;
}

declare module 'undici/lib/api/api-connect.js' {
  import type { Dispatcher } from 'undici';
  /** Dispatcher.connect, called with the dispatcher as `this`. */
  export default function connect(
    this: Dispatcher,
    options: Dispatcher.ConnectOptions,
  ): Promise<Dispatcher.ConnectData>;
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
