import {type Pricing, priceBook, type Prices} from '../core/sessions/usage.js'

/**
 * The prices of model requests: the `pricing` setting's, else the model catalog's. The catalog
 * is loaded here, on the first call (it takes tens of milliseconds: never at start-up).
 */
export async function loadPrices(pricing: Pricing | undefined): Promise<Prices> {
  const {catalogCost} = await import('./model-catalog.js')
  return priceBook(pricing, catalogCost)
}
