import type {OfferedTool, ToolResult, ToolVerdict} from '@hanzo-dev/sdk'

import {describeCall} from '../../core/tools/call-description.js'
import {ToolPipeline} from '../../core/tools/pipeline.js'
import {trusted} from '../../core/tools/registry.js'
import {resolveToolPath} from '../tools/workspace-path.js'
import type {SessionParts} from './session-parts.js'

/**
 * A session's tools as a caller uses them outside a run (`mcp serve`, a library caller): listed,
 * judged by the session's rules, and called through the same pipeline, gate and middleware as
 * the model's calls. Only the tools the session is offered (`offered`) are reachable.
 */
export class DirectTools {
  constructor(
    private readonly parts: SessionParts,
    private readonly offered: readonly string[],
    private readonly sessionId: string,
  ) {}

  specs(): OfferedTool[] {
    return this.offered.flatMap((name) => {
      const tool = this.parts.registry.get(name)
      if (!tool) return []
      const {description, inputSchema, mutating} = tool.definition
      return [
        {description, inputSchema, mutating: mutating || !trusted(tool), name, source: tool.origin ?? tool.source},
      ]
    })
  }

  call(name: string, input: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
    const {cwd, hiddenPaths, middleware, permissions, registry} = this.parts
    const offered = {has: (tool: string) => this.offered.includes(tool)}
    const pipeline = new ToolPipeline({
      canonicalPath: (path) => canonicalPath(cwd, path),
      cwd,
      hiddenPaths,
      middleware,
      offered,
      permissions,
      registry,
    })
    return pipeline.execute(name, input, this.sessionId, signal)
  }

  async verdict(name: string, input: Record<string, unknown>): Promise<ToolVerdict> {
    const tool = this.parts.registry.get(name)
    if (!tool || !this.offered.includes(tool.definition.name))
      return {decision: 'deny', reason: `${name} is not one of this session's tools`}
    const {kind, subject} = describeCall(tool.definition, input)
    const canonical = subject?.kind === 'path' ? await canonicalPath(this.parts.cwd, subject.path) : undefined
    const evaluation = this.parts.verdictPolicy.evaluate(tool.definition.name, {
      canonicalPath: canonical,
      kind,
      mutating: !trusted(tool) || tool.definition.mutating,
      subject,
      trusted: trusted(tool),
    })
    const decision = evaluation.mode === 'prompt' ? 'ask' : evaluation.mode
    return {
      decision,
      ...(evaluation.reason ? {reason: evaluation.reason} : {}),
      ...(evaluation.rule ? {rule: evaluation.rule.pattern} : {}),
    }
  }
}

/** The workspace-relative path the permission rules match `path` as; null for one outside it or unresolvable. */
export function canonicalPath(cwd: string, path: string): Promise<string | null> {
  return resolveToolPath(cwd, path).then(
    (resolved) => resolved.relative,
    () => null,
  )
}
