/**
 * Which models take images, by name: the catalog (`@pydantic/genai-prices`) does not say. A
 * gateway's `vendor/model` id is judged by its last part. A model no pattern names is taken for
 * text-only: a local or custom server that cannot read an image fails the whole request (or drops
 * the image silently), while a tool error lets the model carry on without it.
 */
const TAKES_IMAGES: readonly RegExp[] = [
  /^claude-/,
  /^(chatgpt-)?gpt-4o/,
  /^gpt-4\.1/,
  /^gpt-4-turbo/,
  /^gpt-4\.5/,
  /^gpt-5/,
  // o1 and o3 themselves, not o1-mini, o1-preview or o3-mini (text only).
  /^o1(-\d{4}|$)/,
  /^o3(-pro|-\d{4}|$)/,
  /^o4/,
  /^gemini-/,
  /^gemma-?3/,
  /^grok-.*vision|^grok-4/,
  /^pixtral|^mistral-(small|medium)-(3|latest)/,
  /^llava|^llama-?3\.2-vision|^llama-?4|^qwen2(\.5)?-?vl/,
]

export function modelTakesImages(model: string): boolean {
  const name = model.toLowerCase().split('/').at(-1) ?? ''
  return TAKES_IMAGES.some((pattern) => pattern.test(name))
}

/** The tool error an image gets from a model that cannot see it. */
export function imagesRefused(model: string, tool: string): string {
  return `this model does not take images (${model}): ${tool} returned an image it cannot see. Work from text instead (a file's metadata, or a description the user gives).`
}
