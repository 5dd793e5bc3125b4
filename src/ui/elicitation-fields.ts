import type {ElicitationSchema, ElicitationValue} from '@hanzo-dev/sdk'

/**
 * One field of an MCP server's form (the spec's restricted schema: one level of primitives),
 * as the chat asks it: typed by the schema, enum options with their titles (SEP-1330: `enum`
 * with `enumNames`, `oneOf` of `const`/`title`, an array of `items.enum` or `items.anyOf` for
 * several), the default (SEP-1034) taken when the answer is left empty.
 */
export interface FormField {
  name: string
  title: string
  description?: string
  required: boolean
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi'
  options: {value: string; title: string}[]
  default?: ElicitationValue
  schema: Readonly<Record<string, unknown>>
}

export function formFields(schema: ElicitationSchema): FormField[] {
  const required = new Set(schema.required ?? [])
  return Object.entries(schema.properties).map(([name, property]) => {
    const items = (property.items ?? {}) as Record<string, unknown>
    const single = options(property)
    const several = property.type === 'array' ? options(items) : []
    const kind =
      property.type === 'array'
        ? 'multi'
        : single.length > 0
          ? 'enum'
          : ((['number', 'integer', 'boolean'] as const).find((type) => type === property.type) ?? 'string')
    return {
      description: typeof property.description === 'string' ? property.description : undefined,
      kind,
      name,
      options: kind === 'multi' ? several : single,
      required: required.has(name),
      schema: property,
      title: typeof property.title === 'string' ? property.title : name,
      ...(property.default === undefined ? {} : {default: property.default as ElicitationValue}),
    }
  })
}

function options(schema: Readonly<Record<string, unknown>>): {value: string; title: string}[] {
  const titled = (schema.oneOf ?? schema.anyOf) as {const?: unknown; title?: unknown}[] | undefined
  if (Array.isArray(titled))
    return titled.map((option) => ({
      title: typeof option.title === 'string' ? option.title : String(option.const),
      value: String(option.const),
    }))
  if (!Array.isArray(schema.enum)) return []
  const names = Array.isArray(schema.enumNames) ? (schema.enumNames as unknown[]) : []
  return schema.enum.map((value, i) => ({
    title: typeof names[i] === 'string' ? (names[i] as string) : String(value),
    value: String(value),
  }))
}

/** The field's answer from what was typed, or why it does not fit; `skip`: left empty, with nothing to send. */
export function parseAnswer(field: FormField, typed: string): {value: ElicitationValue} | {error: string} | 'skip' {
  const text = typed.trim()
  if (text === '') {
    if (field.default !== undefined) return {value: field.default}
    return field.required ? {error: `${field.title} is required`} : 'skip'
  }

  const {schema} = field
  switch (field.kind) {
    case 'boolean': {
      if (/^(y|yes|true)$/i.test(text)) return {value: true}
      if (/^(n|no|false)$/i.test(text)) return {value: false}
      return {error: 'answer y or n'}
    }

    case 'number':
    case 'integer': {
      const value = Number(text)
      if (!Number.isFinite(value) || (field.kind === 'integer' && !Number.isInteger(value)))
        return {error: `${text} is not ${field.kind === 'integer' ? 'a whole number' : 'a number'}`}
      if (typeof schema.minimum === 'number' && value < schema.minimum) return {error: `at least ${schema.minimum}`}
      if (typeof schema.maximum === 'number' && value > schema.maximum) return {error: `at most ${schema.maximum}`}
      return {value}
    }

    case 'enum': {
      const option = pick(field, text)
      return option ? {value: option} : {error: `choose one of 1-${field.options.length}`}
    }

    case 'multi': {
      const picked = text.split(',').map((part) => pick(field, part.trim()))
      if (picked.some((option) => option === undefined))
        return {error: `choose from 1-${field.options.length}, separated by commas`}
      const values = [...new Set(picked as string[])]
      if (typeof schema.minItems === 'number' && values.length < schema.minItems)
        return {error: `choose at least ${schema.minItems}`}
      if (typeof schema.maxItems === 'number' && values.length > schema.maxItems)
        return {error: `choose at most ${schema.maxItems}`}
      return {value: values}
    }

    case 'string': {
      if (typeof schema.minLength === 'number' && text.length < schema.minLength)
        return {error: `at least ${schema.minLength} characters`}
      if (typeof schema.maxLength === 'number' && text.length > schema.maxLength)
        return {error: `at most ${schema.maxLength} characters`}
      const format = FORMATS[String(schema.format)]
      if (format && !format.test(text)) return {error: `not ${String(schema.format)}`}
      return {value: text}
    }
  }
}

/** The formats the spec allows a string field, checked loosely: the server checks them its own way. */
const FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/,
  email: /^[^\s@]+@[^\s@]+$/,
  uri: /^[a-z][\d+.a-z-]*:\S+$/i,
}

/** An option by its number (1-based) or its value or title. */
function pick(field: FormField, text: string): string | undefined {
  const index = Number(text)
  if (Number.isInteger(index) && index >= 1 && index <= field.options.length) return field.options[index - 1].value
  return field.options.find((option) => option.value === text || option.title === text)?.value
}
