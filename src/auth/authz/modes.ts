// --authorization-mode: which authorizers run, in order. Kept free of imports, so the command
// line can check the flag before it loads the server.

export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
export type AuthorizationMode = 'AlwaysAllow' | 'AlwaysDeny' | 'RBAC' | 'Node';

/** kapi's default: RBAC, behind the Node authorizer so node agents work (kubeadm's choice). */
export const DEFAULT_AUTHORIZATION_MODES: AuthorizationMode[] = ['Node', 'RBAC'];

/** --authorization-mode as kube validates it (BuiltInAuthorizationOptions.Validate), for the modes kapi has. */
export function parseAuthorizationModes(value: string): AuthorizationMode[] {
  const modes = value.split(',').map((m) => m.trim()).filter(Boolean);
  const errors: string[] = [];
  if (modes.length === 0) errors.push('at least one authorization-mode must be passed');
  for (const m of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(m)) errors.push(`authorization-mode ${JSON.stringify(m)} is not a valid mode`);
    else if (m === 'ABAC' || m === 'Webhook') errors.push(`authorization-mode ${JSON.stringify(m)} is not supported by kapi`);
  }
  if (new Set(modes).size !== modes.length) errors.push(`authorization-mode [${modes.map((m) => JSON.stringify(m)).join(' ')}] has mode specified more than once`);
  if (errors.length) throw new Error(errors.join('; '));
  return modes as AuthorizationMode[];
}
