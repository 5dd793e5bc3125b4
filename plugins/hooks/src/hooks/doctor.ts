import {defineDoctorHook, doctorReport} from '@hanzo-dev/sdk'

import {hooksChecks} from '../doctor-checks.js'

export default defineDoctorHook(async ({host}) => doctorReport(await hooksChecks(host)))
