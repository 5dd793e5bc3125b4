export {type BackendProbe, probeMechanism, type ProbeContext} from './backends.js'
export {type BackendStatus, type CommandWrapper, type ConfinedCommand, type Confinement} from './confinement.js'
export {
  type ContainerEvidence,
  type ContainerProbe,
  type ContainerRuntime,
  containerEvidence,
  detectContainer,
  nodeContainerProbe,
} from './container.js'
export {sandboxChecks} from './doctor-checks.js'
export {type HostSandbox, sandboxForHost, type SandboxHost, startNotices} from './host-sandbox.js'
export {default as contribute} from './hooks/contribute.js'
export {default as doctor} from './hooks/doctor.js'
export {
  chooseEnforcement,
  type Enforcement,
  ENFORCEMENT_TEXT,
  ISOLATION_MODES,
  type IsolationMode,
  MECHANISM_ENV,
  type Mechanism,
  MECHANISMS,
  mechanismsToTry,
  readSandboxConfig,
  type ResolvedSandboxConfig,
  type SandboxConfig,
  SANDBOX_MODES,
  type SandboxMode,
  type SandboxSettings,
} from './isolation.js'
export {cacheGuards, packageCaches, type WritableCache} from './package-caches.js'
export {sandboxMiddleware} from './middleware.js'
export {type CommandGuards, commandGuards, sweepAfter} from './project-guards.js'
export {type MountPlan, type ProtectedPath, type Roots} from './mount-plan.js'
export {type CheckPathOptions, type PathVerdict, Sandbox, type SandboxOptions} from './sandbox.js'
export {bwrapArgs, mountPoints, unshareArgs} from './wrappers.js'
