export {default as doctor} from './hooks/doctor.js'
