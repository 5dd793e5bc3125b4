import {Args, Command} from '@oclif/core'

// Stands for the work a real `config get` does: parse, then print one value.
export default class Get extends Command {
  static args = {key: Args.string({description: 'Setting to print', required: true})}
  static description = 'Print one setting'

  async run() {
    const {args} = await this.parse(Get)
    this.log(args.key === 'model' ? 'peer-model' : '')
  }
}
