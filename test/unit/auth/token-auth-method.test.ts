import {describe, expect, it} from 'vitest'

import {clientFields, tokenAuthMethod} from '../../../src/core/auth/oauth-http.js'

describe('the token endpoint client authentication method', () => {
  it("takes the registration's method, else Basic when the server lists it, else the body; none without a secret", () => {
    expect(tokenAuthMethod(undefined, ['client_secret_basic'])).toBe('none')
    expect(tokenAuthMethod('s', ['client_secret_basic'], 'client_secret_post')).toBe('client_secret_post')
    expect(tokenAuthMethod('s', ['client_secret_post', 'client_secret_basic'])).toBe('client_secret_basic')
    expect(tokenAuthMethod('s', ['client_secret_post'])).toBe('client_secret_post')
    expect(tokenAuthMethod('s', ['none'])).toBe('none')
    // A server that lists nothing gets the secret in the body, as before methods were read.
    expect(tokenAuthMethod('s', undefined)).toBe('client_secret_post')
  })

  it('puts the secret in the form only for client_secret_post', () => {
    const client = {clientId: 'c', clientSecret: 's'}
    expect(clientFields(client)).toEqual({client_id: 'c', client_secret: 's'})
    expect(clientFields({...client, authMethod: 'client_secret_basic'})).toEqual({client_id: 'c'})
    expect(clientFields({...client, authMethod: 'none'})).toEqual({client_id: 'c'})
  })
})
