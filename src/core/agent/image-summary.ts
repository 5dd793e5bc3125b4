import type {ImageMediaType, ImagePart} from '@hanzo-dev/sdk/tools'

/** What a client is told of an image the model saw: its base64 bytes can be megabytes. */
export interface ImageSummary {
  mediaType: ImageMediaType
  /** The image's size decoded, as fs_read's text gives it. */
  bytes: number
  name: string
}

/** The images as summaries, or nothing when there are none (a text result stays as it was). */
export function summarizeImages(images: readonly ImagePart[] | undefined): {images?: ImageSummary[]} {
  if (!images?.length) return {}
  return {
    images: images.map(({data, mediaType, name}) => ({bytes: Buffer.byteLength(data, 'base64'), mediaType, name})),
  }
}
