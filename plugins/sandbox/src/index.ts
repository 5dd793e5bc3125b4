export {type BackendProbe, BWRAP_TRIAL, type ProbeContext, probeBubblewrap, probeUnshare, UNSHARE_TRIAL} from './backends.js'
export {
  type ContainerEvidence,
  type ContainerProbe,
  type ContainerRuntime,
  containerEvidence,
  detectContainer,
  nodeContainerProbe,
} from './container.js'
export {sandboxChecks} from './doctor-checks.js'
export {default as doctor} from './hooks/doctor.js'
export {
  chooseEnforcement,
  type Enforcement,
  ISOLATION_MODES,
  type IsolationMode,
  readSandboxConfig,
  type ResolvedSandboxConfig,
  type SandboxConfig,
} from './isolation.js'
